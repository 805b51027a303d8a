"""The sentences that explain a refused move, in English and Russian, keyed by the engine's
rule code (`canasta.rules.refusal.Code`), with a `.case` where one code covers several situations.

Templates take the facts of the engine's `Refusal` as `canasta.protocol.rule_reasons` renders
them: `{ranks}` (a rank in the plural: "queens"; Russian genitive plural: "дам", so that no
phrase needs a gender), `{rank}` (singular), `{card}` (a card such as "Q♥"), and numbers.
Russian sentences are written so that they need neither the player's gender nor a noun agreeing
with a number.
"""

# ruff: noqa: E501  (sentences read better unbroken)
from __future__ import annotations

from collections.abc import Mapping

from canasta.protocol import translations

RANKS: Mapping[str, Mapping[str, str]] = {
    "en": {
        "A": "aces", "K": "kings", "Q": "queens", "J": "jacks", "10": "tens", "9": "nines",
        "8": "eights", "7": "sevens", "6": "sixes", "5": "fives", "4": "fours", "3": "black threes",
        "wild": "wild cards",
    },
    "ru": {
        "A": "тузов", "K": "королей", "Q": "дам", "J": "валетов", "10": "десяток", "9": "девяток",
        "8": "восьмёрок", "7": "семёрок", "6": "шестёрок", "5": "пятёрок", "4": "четвёрок",
        "3": "чёрных троек", "wild": "джокеров и двоек",
    },
}  # fmt: skip

RANK: Mapping[str, Mapping[str, str]] = {
    "en": {
        "A": "ace", "K": "king", "Q": "queen", "J": "jack", "10": "ten", "9": "nine", "8": "eight",
        "7": "seven", "6": "six", "5": "five", "4": "four", "3": "black three", "wild": "wild card",
    },
    "ru": {
        "A": "туз", "K": "король", "Q": "дама", "J": "валет", "10": "десятка", "9": "девятка",
        "8": "восьмёрка", "7": "семёрка", "6": "шестёрка", "5": "пятёрка", "4": "четвёрка",
        "3": "чёрная тройка", "wild": "джокер или двойка",
    },
}  # fmt: skip

# How the pile may be taken (RuleSet.pile_take_methods), joined by "or" into `{how}`.
METHODS: Mapping[str, Mapping[str, str]] = {
    "en": {
        "pair": "two natural {ranks}",
        "natural_wild": "a natural {rank} and a wild card",
        "layoff": "a meld of {ranks} of your own to add the top card to",
        "or": " or ",
    },
    "ru": {
        "pair": "пара натуральных {ranks}",
        "natural_wild": "натуральная карта того же достоинства и джокер или двойка",
        "layoff": "своя комбинация из {ranks}, к которой подойдёт верхняя карта",
        "or": " или ",
    },
}

EN: Mapping[str, str] = {
    "awaiting_answer": "Wait for your partner's answer first.",
    "bad_meld": "These cards do not make a valid meld.",
    "bad_meld.too_few": "A new meld of {ranks} needs at least three cards.",
    "bad_meld.too_big": "A meld may hold at most {n} cards.",
    "bad_meld.no_wild_melds": "These rules have no melds of wild cards only.",
    "bad_meld.wild_canasta": "Wild cards alone are laid only as a whole canasta (seven or more) in one turn, "
    "and nothing is added to it.",
    "bad_meld.threes": "Black threes are laid only as three or four of them, with no wild card.",
    "bad_meld.naturals": "A meld of {ranks} needs at least {n} natural cards.",
    "bad_meld.max_wilds": "A meld may hold at most {n} wild cards.",
    "bad_meld.ratio_le": "A meld may not hold more wild cards than natural ones.",
    "bad_meld.ratio_lt": "A meld needs more natural cards than wild ones.",
    "bad_meld.sevens": "Sevens take no wild cards.",
    "bad_meld.aces_opening": "Wild cards go into aces only in your side's first meld.",
    "bad_meld.rule_of_five": "After the first meld, wild cards go only into melds of five or more natural cards.",
    "bad_meld.wild_pending": "While your meld of wild cards is not complete, wild cards go only into it.",
    "bad_meld.red_three": "Red threes are never melded: they score on their own.",
    "bad_pickup": "The pile cannot be taken with these cards.",
    "bad_pickup.top_only_off": "These rules do not let you buy only the top card.",
    "bad_pickup.one_card": "A pile of one card is taken whole.",
    "bad_pickup.wrong_cards": "Only {ranks} or wild cards can go with the top card {card}.",
    "bad_pickup.method": "To take the pile you need {how}.",
    "black_threes": "Black threes can be laid only when you go out with them.",
    "cannot_ask": "You cannot ask your partner now.",
    "cannot_go_out": "You cannot go out now.",
    "cannot_go_out.canastas": "You cannot go out yet: your side needs {need} {canastas} and has {have}.",
    "cannot_go_out.special": "An unfinished meld of sevens, aces or wild cards keeps you from going out.",
    "cannot_go_out.partner_no": "Your partner said no: you cannot go out this turn.",
    "cannot_go_out.must_ask": "Ask your partner before going out.",
    "cannot_pass": "You may pass only when the stock is empty: draw a card.",
    "card_not_in_hand": "You do not hold {card}.",
    "dead_rank": "No more {ranks} may be melded: that rank is dead.",
    "deal_not_over": "The deal is not over yet.",
    "deal_over": "The deal is over.",
    "discard_restricted": "You may not discard that card now.",
    "discard_restricted.three": "Threes are never discarded.",
    "discard_restricted.wild": "A wild card may be discarded only when going out or when you hold nothing else.",
    "discard_restricted.ace_seven": "On an empty pile, aces and sevens go only when you hold no other natural card.",
    "discard_restricted.dead": "On an empty pile, a card of a dead rank goes only when nothing else can.",
    "empty_group": "Choose the cards to lay first.",
    "empty_meld": "Choose the cards to lay first.",
    "empty_pile": "The pile is empty.",
    "frozen_pile.frozen": "The pile is frozen: you need two natural {ranks} from your hand to take it.",
    "frozen_pile.unopened": "Your side has not melded yet: to take the pile you need two natural {ranks} "
    "from your hand.",
    "frozen_pile.always": "The pile is taken only with two natural {ranks} from your hand.",
    "game_over": "The game is over.",
    "mixed_ranks": "A meld holds cards of one rank (and wild cards).",
    "must_discard": "Keep one card to discard at the end of your turn.",
    "must_meld_out": "After taking a pile topped by a black three, or buying only the top card, you must lay down every card (no discard follows).",
    "must_take_pile": "The stock is empty and the top card fits one of your melds: take the pile.",
    "no_deal": "No deal has been dealt yet.",
    "no_question": "Nobody has asked to go out.",
    "not_your_turn": "It is not your turn.",
    "opening_composition": "Your first meld needs three or more natural cards of one rank without wild cards, "
    "or a meld of wild cards.",
    "opening_minimum": "Your first meld counts {count} points; you need at least {minimum}.",
    "pile_blocked": "The pile cannot be taken now.",
    "pile_blocked.wild_top": "A wild card on top blocks the pile: it cannot be taken now.",
    "pile_blocked.black3_top": "A black three on top blocks the pile: draw from the stock.",
    "pile_blocked.black3_go_out": "A pile topped by a black three may be taken only to go out at once.",
    "pile_blocked.red3_top": "A red three on top blocks the pile until it is covered.",
    "pile_blocked.one_card": "Holding one card, you may not take a pile of one card.",
    "pile_blocked.canasta_rank": "Your side already has a canasta of {ranks}: the pile cannot be taken for them.",
    "pile_blocked.dead_rank": "No more {ranks} may be melded, so the pile cannot be taken for them.",
    "stock_empty": "The stock is empty.",
    "top_only": "After buying only the top card you must lay down every card (no discard follows).",
    "wrong_phase.draw": "Draw a card or take the pile first.",
    "wrong_phase.play": "You have already drawn this turn.",
}

RU: Mapping[str, str] = {
    "awaiting_answer": "Сначала дождитесь ответа партнёра.",
    "bad_meld": "Из этих карт комбинацию составить нельзя.",
    "bad_meld.too_few": "Для новой комбинации из {ranks} нужно не меньше трёх карт.",
    "bad_meld.too_big": "Предел для одной комбинации — {n} карт.",
    "bad_meld.no_wild_melds": "По этим правилам комбинаций из одних джокеров и двоек не бывает.",
    "bad_meld.wild_canasta": "Одни джокеры и двойки выкладывают только целой канастой (семь карт и больше) "
    "за один ход, и к ней ничего не добавляют.",
    "bad_meld.threes": "Чёрные тройки выкладывают по три или четыре, без джокеров и двоек.",
    "bad_meld.naturals": "В комбинации из {ranks} нужно не меньше {n} натуральных карт.",
    "bad_meld.max_wilds": "Предел джокеров и двоек в одной комбинации — {n}.",
    "bad_meld.ratio_le": "Джокеров и двоек в комбинации не может быть больше, чем натуральных карт.",
    "bad_meld.ratio_lt": "Натуральных карт в комбинации должно быть больше, чем джокеров и двоек.",
    "bad_meld.sevens": "К семёркам нельзя добавлять джокеры и двойки.",
    "bad_meld.aces_opening": "Джокеры и двойки кладут к тузам только в первой выкладке команды.",
    "bad_meld.rule_of_five": "После первой выкладки джокеры и двойки кладут только в комбинации "
    "из пяти и больше натуральных карт.",
    "bad_meld.wild_pending": "Пока комбинация из джокеров и двоек не закончена, такие карты кладут только в неё.",
    "bad_meld.red_three": "Красные тройки не выкладывают в комбинации: очки за них считаются отдельно.",
    "bad_pickup": "Этими картами сброс взять нельзя.",
    "bad_pickup.top_only_off": "По этим правилам нельзя купить только верхнюю карту.",
    "bad_pickup.one_card": "Сброс из одной карты берут целиком.",
    "bad_pickup.wrong_cards": "К верхней карте {card} подходят только карты того же достоинства, "
    "джокеры и двойки.",
    "bad_pickup.method": "Чтобы взять сброс, нужна {how}.",
    "black_threes": "Чёрные тройки можно выложить только при выходе.",
    "cannot_ask": "Сейчас спросить партнёра нельзя.",
    "cannot_go_out": "Сейчас выйти нельзя.",
    "cannot_go_out.canastas": "Выйти пока нельзя: нужно канаст — {need}, у вашей команды — {have}.",
    "cannot_go_out.special": "Незаконченная комбинация из семёрок, тузов или джокеров не даёт выйти.",
    "cannot_go_out.partner_no": "Партнёр ответил «нет»: в этот ход выйти нельзя.",
    "cannot_go_out.must_ask": "Перед выходом спросите партнёра.",
    "cannot_pass": "Пасовать можно, только когда прикуп кончился: возьмите карту.",
    "card_not_in_hand": "У вас на руке нет {card}.",
    "dead_rank": "Больше нельзя выкладывать {ranks_acc}: это достоинство «мёртвое».",
    "deal_not_over": "Сдача ещё не закончена.",
    "deal_over": "Сдача уже закончена.",
    "discard_restricted": "Эту карту сейчас сбросить нельзя.",
    "discard_restricted.three": "Тройки не сбрасывают.",
    "discard_restricted.wild": "Джокер или двойку можно сбросить только при выходе или когда других карт нет.",
    "discard_restricted.ace_seven": "На пустой сброс тузы и семёрки кладут, только когда других натуральных "
    "карт нет.",
    "discard_restricted.dead": "На пустой сброс карту «мёртвого» достоинства кладут, только когда больше нечего.",
    "empty_group": "Сначала выберите карты.",
    "empty_meld": "Сначала выберите карты.",
    "empty_pile": "Сброс пуст.",
    "frozen_pile.frozen": "Сброс заморожен: чтобы его взять, нужна пара натуральных {ranks} с руки.",
    "frozen_pile.unopened": "Ваша команда ещё ничего не выложила: чтобы взять сброс, нужна пара натуральных "
    "{ranks} с руки.",
    "frozen_pile.always": "Сброс берут только парой натуральных {ranks} с руки.",
    "game_over": "Игра окончена.",
    "mixed_ranks": "В комбинации карты одного достоинства (и джокеры или двойки).",
    "must_discard": "Оставьте карту, чтобы сбросить её в конце хода.",
    "must_meld_out": "После взятия сброса с чёрной тройкой сверху или покупки только верхней карты нужно выложить все карты (сброса не будет).",
    "must_take_pile": "Прикуп кончился, а верхняя карта подходит к вашей комбинации: возьмите сброс.",
    "no_deal": "Карты ещё не розданы.",
    "no_question": "Никто не спрашивал о выходе.",
    "not_your_turn": "Сейчас не ваш ход.",
    "opening_composition": "В первой выкладке нужна комбинация из трёх и больше натуральных карт одного "
    "достоинства без джокеров и двоек или комбинация из одних джокеров и двоек.",
    "opening_minimum": "Для первой выкладки не хватает очков: {count} из {minimum}.",
    "pile_blocked": "Сейчас сброс взять нельзя.",
    "pile_blocked.wild_top": "Джокер или двойка сверху закрывает сброс: сейчас его взять нельзя.",
    "pile_blocked.black3_top": "Чёрная тройка сверху закрывает сброс: возьмите карту из прикупа.",
    "pile_blocked.black3_go_out": "Сброс с чёрной тройкой сверху можно взять, только чтобы сразу выйти.",
    "pile_blocked.red3_top": "Красная тройка сверху закрывает сброс, пока её не накроют.",
    "pile_blocked.one_card": "С одной картой на руке нельзя взять сброс из одной карты.",
    "pile_blocked.canasta_rank": "У вашей команды уже есть канаста из {ranks}: ради них сброс не берут.",
    "pile_blocked.dead_rank": "Больше нельзя выкладывать {ranks_acc}, поэтому ради них сброс не берут.",
    "stock_empty": "Прикуп кончился.",
    "top_only": "Купив только верхнюю карту, нужно выложить все карты (сброса не будет).",
    "wrong_phase.draw": "Сначала возьмите карту из прикупа или сброс.",
    "wrong_phase.play": "В этот ход карта уже взята.",
}

# Russian accusative plural (the object of "выкладывать"; court cards and jokers are animate).
RANKS_ACCUSATIVE_RU: Mapping[str, str] = {
    "A": "тузов", "K": "королей", "Q": "дам", "J": "валетов", "10": "десятки", "9": "девятки",
    "8": "восьмёрки", "7": "семёрки", "6": "шестёрки", "5": "пятёрки", "4": "четвёрки",
    "3": "чёрные тройки", "wild": "джокеров и двойки",
}  # fmt: skip

FALLBACK: Mapping[str, str] = {
    "en": "The rules do not allow this move.",
    "ru": "Правила не разрешают этот ход.",
}
TEXTS: Mapping[str, Mapping[str, str]] = {"en": EN, "ru": RU}

# Spanish, Portuguese (Brazil) and German: canasta.protocol.translations.
RANKS = {**RANKS, **translations.RANKS}
RANK = {**RANK, **translations.RANK}
METHODS = {**METHODS, **translations.METHODS}
FALLBACK = {**FALLBACK, **translations.FALLBACK}
TEXTS = {**TEXTS, **translations.REFUSALS}
