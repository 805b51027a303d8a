// Every text the client shows, in English and Russian; the language comes from the browser
// unless the player switched it (kept in localStorage).

import { prefs } from './prefs.js';

export const LANGUAGES = ['en', 'ru'];

const EN = {
  'lang.short.en': 'EN', 'lang.short.ru': 'RU',
  'lang.switch_to.en': 'Switch to English', 'lang.switch_to.ru': 'Switch to Russian',
  home: 'Canasta: home', tools: 'Table tools', help: 'Keyboard help', four_colour: '4 colours',
  copy: 'Copy', copied: 'Copied', close: 'Close',
  // cards
  card: '{rank} of {suit}',
  'suit.S': 'spades', 'suit.H': 'hearts', 'suit.D': 'diamonds', 'suit.C': 'clubs',
  'rank.JK': 'Joker', 'rank.2': 'Two', 'rank.A': 'Ace', 'rank.K': 'King', 'rank.Q': 'Queen', 'rank.J': 'Jack',
  'rank.10': 'Ten', 'rank.9': 'Nine', 'rank.8': 'Eight', 'rank.7': 'Seven', 'rank.6': 'Six', 'rank.5': 'Five',
  'rank.4': 'Four', 'rank.3': 'Three',
  'ranks.A': 'Aces', 'ranks.K': 'Kings', 'ranks.Q': 'Queens', 'ranks.J': 'Jacks', 'ranks.10': 'Tens',
  'ranks.9': 'Nines', 'ranks.8': 'Eights', 'ranks.7': 'Sevens', 'ranks.6': 'Sixes', 'ranks.5': 'Fives',
  'ranks.4': 'Fours', 'ranks.3': 'Black threes',
  // rule sets and options
  'variant.classic': 'Classic', 'variant.modern-american': 'Modern American', 'variant.online': 'Online',
  'variant.mendelev': 'Encyclopedia',
  'level.random': 'random', 'level.easy': 'easy', 'level.normal': 'normal', 'level.hard': 'hard', 'level.search': 'search',
  'option.go_out_min_canastas': 'Canastas needed to go out',
  'option.permission_mode': 'Asking partner to go out',
  'option.permission_mode.optional_binding': 'allowed (the answer binds)',
  'option.permission_mode.once_per_deal_after_draw': 'once a deal, after drawing',
  'option.permission_mode.mandatory': 'required', 'option.permission_mode.off': 'not used',
  'option.black3_freezes': 'A discarded black three freezes the pile',
  'option.pile_take_by_layoff': 'Take an open pile by adding its top card to a meld',
  'option.pile_review': 'Look through the pile on your turn',
  'option.pile_review.off': 'no (top card only)', 'option.pile_review.own_turn': 'yes',
  'option.stock_exhaustion': 'When the stock runs out',
  'option.stock_exhaustion.continue_with_discards': 'play on while discards are taken',
  'option.stock_exhaustion.end': 'the deal ends',
  // home page
  'home.title': 'Canasta with friends',
  'home.lead': 'Create a table, send the link, play in the browser. No accounts, no downloads.',
  'home.ruleset': 'Rule set', 'home.players': 'Players', 'home.target': 'Target score',
  'home.target_default': 'as the rules say ({n})', 'home.house': 'House rules', 'home.seats': 'Who sits where',
  'home.seat': 'Seat {n}', 'home.team': 'team {n}', 'home.you': 'You', 'home.friend': 'A friend',
  'home.computer': 'Computer', 'home.level': 'Level', 'home.your_name': 'Your name',
  'home.create': 'Create the table', 'home.ready': 'Your table is ready',
  'home.share': 'Send this link to the friends you play with:', 'home.go': 'Go to the table',
  'home.no_you': 'You have no seat at this table: you will watch.',
  // table page
  skip_to_hand: 'Skip to your hand', players: 'Players', staged: 'Groups to lay', actions: 'Your move',
  sheet: 'Score sheet', invite: 'Invite', history: 'Hand history', log: 'Moves',
  draw: 'Draw', pickup: 'Take the pile', group: 'Group', lay: 'Lay melds', discard: 'Discard', clear: 'Clear',
  ask: 'Ask partner', pass: 'Pass', rematch: 'Rematch',
  answer_yes: 'Yes, go out', answer_no: 'No, not yet',
  join_title: 'Join the table', your_name: 'Your name', pick_seat: 'Pick a free seat', watch: 'Just watch',
  join_rules: '{variant} rules, {players} players, game to {target}.', name_needed: 'Please type your name first.',
  partner_of: 'partner of {names}', sit_down: 'Take a seat',
  invite_title: 'Invite friends', table_link: 'Table link', other_device: 'Open on another device',
  other_device_note: 'This link is your seat: open it on your phone or another computer to play from there. Do not share it.',
  keys_title: 'Keyboard', 'keys.move': 'Move between your cards', 'keys.select': 'Choose or drop the card in focus',
  you: 'you', partner: 'partner', opponent: 'opponent', team_n: 'team {n}', seat_n: 'Seat {n}', bot_name: 'Computer {n}',
  computer: 'computer, {level}', seat_free: 'free seat', stand_in: 'away: a computer plays',
  online: 'online', offline: 'offline', dealer: 'dealer', sitting_out: 'sits out', to_move: 'to move',
  cards_n: { one: '{n} card', other: '{n} cards' },
  we: 'We', they: 'They', score_n: '{n} points', target_n: 'to {n}',
  opened: 'opened', minimum_n: 'minimum {n} to open',
  canastas_needed: { one: '{n} canasta to go out', other: '{n} canastas to go out' },
  may_go_out: 'may go out', threes_n: { one: '{n} bonus three', other: '{n} bonus threes' },
  no_melds: 'no melds yet', melds_of: 'Melds of {team}',
  'meld.wild': 'Wild cards', 'meld.of': '{rank}',
  'meld.label': { one: '{name}: {n} card, {wilds} wild', other: '{name}: {n} cards, {wilds} wild' },
  'meld.add_hint': 'Press to add the chosen cards to this meld',
  'canasta.natural': 'natural', 'canasta.mixed': 'mixed', 'canasta.wild': 'wild',
  'canasta.label': 'Canasta, {kind}. {label}',
  stock: 'Stock', stock_label: { one: 'Stock: {n} card', other: 'Stock: {n} cards' }, stock_hint: 'press to draw',
  pile: 'Discard pile', pile_label: { one: 'Discard pile: {n} card', other: 'Discard pile: {n} cards' },
  top_card: 'top card {card}', pile_review: 'The rest of the pile, top first',
  say: 'Say', chat: 'Chat phrase', pile_empty: 'empty', frozen: 'frozen', frozen_for_you: 'frozen for you until you meld',
  'blocked.wild': 'blocked by a wild card', 'blocked.black3': 'blocked by a black three',
  'blocked.red3': 'blocked by a red three',
  pile_hint_take: 'press to take it with the chosen cards', pile_hint_discard: 'press to discard the chosen card',
  staged_group: { one: 'Group of {n} card, {points} points: press to take it back', other: 'Group of {n} cards, {points} points: press to take it back' },
  unstage: 'Take back into the hand',
  opening_count: 'Opening: {points} of {minimum}', points_n: '{n} points',
  your_hand: { one: 'Your hand: {n} card', other: 'Your hand: {n} cards' }, watching: 'You are watching this table.',
  'status.waiting': { one: 'Waiting for {n} more player.', other: 'Waiting for {n} more players.' },
  'status.deal_over': 'The deal is over; the next one starts in a moment.',
  'status.game_over': 'The game is over.',
  'status.answer': '{name} asks you: may I go out?',
  'status.wait_answer': 'You asked your partner. Waiting for the answer…',
  'status.asked': '{name} asked partner for permission to go out.',
  'status.your_draw': 'Your turn: draw from the stock or take the pile.',
  'status.your_play': 'Meld if you like, then discard.',
  'status.must_go_out': 'Your partner said yes: you must go out this turn.',
  'status.may_not_go_out': 'Your partner said no: you may not go out this turn.',
  'status.other_turn': '{name} is playing.',
  'prompt.question': '{name} asks: may I go out?',
  'won.we': 'We won the game!', 'won.they': 'They won the game.', 'won.team': '{team} won the game.',
  'reason.went_out': '{name} went out.', 'reason.concealed': '{name} went out concealed.',
  'reason.stock_exhausted': 'The stock ran out.',
  deal_over_n: 'Deal {n} is over', next_deal: 'The next deal starts in a moment.',
  breakdown: 'Score of the deal',
  'part.cards': 'Cards melded', 'part.canastas': 'Canastas', 'part.threes': 'Bonus threes',
  'part.going_out': 'Going out', 'part.hand': 'Cards left in hand', 'part.penalties': 'Penalties', 'part.total': 'Total',
  'sheet.caption': 'Game to {target}', 'sheet.deal': 'Deal', 'sheet.empty': 'No deal has been scored yet.',
  'chart.label': 'Running totals: {totals}; target {target}',
  choose_one_discard: 'Choose exactly one card to discard.',
  choose_cards_first: 'Choose the cards to add first.',
  reconnecting: 'Connection lost: reconnecting…',
  'log.deal': 'Deal {n} is dealt.',
  'move.draw': '{name} drew from the stock.', 'move.pickup': '{name} took the pile with {cards}',
  'move.to_meld': 'the top card on a meld', 'move.meld': '{name} melded {cards}',
  'move.discard': '{name} discarded {card}.', 'move.ask': '{name} asked partner: may I go out?',
  'move.answer_yes': '{name} answered yes.', 'move.answer_no': '{name} answered no.',
  'move.pass': '{name} passed.', 'move.by_stand_in': '(a computer played for them)',
  'move.by_timer': '(time ran out)',
  // replay page
  'replay.title': 'Hand history', 'replay.game': 'Game', 'replay.deal': 'Deal',
  'replay.download': 'Download the record', 'replay.back': 'Back to the table',
  'replay.first': 'First', 'replay.prev': 'Previous move', 'replay.next': 'Next move', 'replay.last': 'Last',
  'replay.play': 'Play', 'replay.pause': 'Pause', 'replay.step': 'Move {n} of {total}',
  'replay.start': 'The cards are dealt.', 'replay.slider': 'Move', 'replay.none': 'No deal has finished yet.',
  'replay.hand_of': 'Hand of {name}',
};

const RU = {
  'lang.short.en': 'EN', 'lang.short.ru': 'RU',
  'lang.switch_to.en': 'Переключить на английский', 'lang.switch_to.ru': 'Переключить на русский',
  home: 'Канаста: главная', tools: 'Инструменты стола', help: 'Клавиши', four_colour: '4 цвета',
  copy: 'Копировать', copied: 'Скопировано', close: 'Закрыть',
  card: '{rank} {suit}',
  'suit.S': 'пик', 'suit.H': 'червей', 'suit.D': 'бубен', 'suit.C': 'треф',
  'rank.JK': 'Джокер', 'rank.2': 'Двойка', 'rank.A': 'Туз', 'rank.K': 'Король', 'rank.Q': 'Дама', 'rank.J': 'Валет',
  'rank.10': 'Десятка', 'rank.9': 'Девятка', 'rank.8': 'Восьмёрка', 'rank.7': 'Семёрка', 'rank.6': 'Шестёрка',
  'rank.5': 'Пятёрка', 'rank.4': 'Четвёрка', 'rank.3': 'Тройка',
  'ranks.A': 'Тузы', 'ranks.K': 'Короли', 'ranks.Q': 'Дамы', 'ranks.J': 'Валеты', 'ranks.10': 'Десятки',
  'ranks.9': 'Девятки', 'ranks.8': 'Восьмёрки', 'ranks.7': 'Семёрки', 'ranks.6': 'Шестёрки', 'ranks.5': 'Пятёрки',
  'ranks.4': 'Четвёрки', 'ranks.3': 'Чёрные тройки',
  'variant.classic': 'Классика', 'variant.modern-american': 'Современная американская', 'variant.online': 'Онлайн',
  'variant.mendelev': 'Энциклопедия',
  'level.random': 'случайный', 'level.easy': 'лёгкий', 'level.normal': 'средний', 'level.hard': 'сильный',
  'level.search': 'перебор',
  'option.go_out_min_canastas': 'Канаст для выхода',
  'option.permission_mode': 'Вопрос партнёру о выходе',
  'option.permission_mode.optional_binding': 'можно (ответ обязателен к исполнению)',
  'option.permission_mode.once_per_deal_after_draw': 'раз за сдачу, после взятия карты',
  'option.permission_mode.mandatory': 'обязателен', 'option.permission_mode.off': 'не задаётся',
  'option.black3_freezes': 'Сброшенная чёрная тройка замораживает сброс',
  'option.pile_take_by_layoff': 'Брать открытый сброс, добавив верхнюю карту к комбинации',
  'option.pile_review': 'Просматривать сброс в свой ход',
  'option.pile_review.off': 'нет (видна только верхняя карта)', 'option.pile_review.own_turn': 'да',
  'option.stock_exhaustion': 'Когда прикуп кончился',
  'option.stock_exhaustion.continue_with_discards': 'играть, пока берут сброс',
  'option.stock_exhaustion.end': 'сдача заканчивается',
  'home.title': 'Канаста с друзьями',
  'home.lead': 'Создайте стол, отправьте ссылку и играйте в браузере. Без регистрации и установки.',
  'home.ruleset': 'Правила', 'home.players': 'Игроков', 'home.target': 'Игра до',
  'home.target_default': 'по правилам ({n})', 'home.house': 'Домашние правила', 'home.seats': 'Кто где сидит',
  'home.seat': 'Место {n}', 'home.team': 'команда {n}', 'home.you': 'Вы', 'home.friend': 'Друг',
  'home.computer': 'Компьютер', 'home.level': 'Уровень', 'home.your_name': 'Ваше имя',
  'home.create': 'Создать стол', 'home.ready': 'Стол готов',
  'home.share': 'Отправьте эту ссылку друзьям, с которыми играете:', 'home.go': 'К столу',
  'home.no_you': 'У вас нет места за этим столом: вы будете зрителем.',
  skip_to_hand: 'К вашим картам', players: 'Игроки', staged: 'Комбинации к выкладке', actions: 'Ваш ход',
  sheet: 'Счёт', invite: 'Пригласить', history: 'История сдач', log: 'Ходы',
  draw: 'Взять карту', pickup: 'Взять сброс', group: 'В комбинацию', lay: 'Выложить', discard: 'Сбросить',
  clear: 'Отменить', ask: 'Спросить партнёра', pass: 'Пас', rematch: 'Реванш',
  answer_yes: 'Да, выходи', answer_no: 'Нет, рано',
  join_title: 'За стол', your_name: 'Ваше имя', pick_seat: 'Выберите свободное место', watch: 'Только смотреть',
  join_rules: 'Правила: {variant}, игроков: {players}, игра до {target}.', name_needed: 'Сначала введите имя.',
  partner_of: 'партнёр: {names}', sit_down: 'Сесть за стол',
  invite_title: 'Пригласить друзей', table_link: 'Ссылка на стол', other_device: 'Открыть на другом устройстве',
  other_device_note: 'Эта ссылка — ваше место: откройте её на телефоне или другом компьютере, чтобы играть оттуда. Не передавайте её никому.',
  keys_title: 'Клавиши', 'keys.move': 'Переход между картами', 'keys.select': 'Выбрать карту или снять выбор',
  you: 'вы', partner: 'партнёр', opponent: 'соперник', team_n: 'команда {n}', seat_n: 'Место {n}',
  bot_name: 'Компьютер {n}', computer: 'компьютер, {level}', seat_free: 'свободно',
  stand_in: 'отошёл: играет компьютер', online: 'в сети', offline: 'не в сети', dealer: 'сдаёт',
  sitting_out: 'пропускает', to_move: 'ходит',
  cards_n: { one: '{n} карта', few: '{n} карты', many: '{n} карт', other: '{n} карты' },
  we: 'Мы', they: 'Они', score_n: '{n} очков', target_n: 'до {n}',
  opened: 'открылись', minimum_n: 'для открытия {n}',
  canastas_needed: { one: 'для выхода нужна {n} канаста', few: 'для выхода нужны {n} канасты',
    many: 'для выхода нужно {n} канаст', other: 'для выхода нужно {n} канасты' },
  may_go_out: 'можно выходить',
  threes_n: { one: '{n} бонусная тройка', few: '{n} бонусные тройки', many: '{n} бонусных троек', other: '{n} бонусной тройки' },
  no_melds: 'комбинаций пока нет', melds_of: 'Комбинации: {team}',
  'meld.wild': 'Дикие карты', 'meld.of': '{rank}',
  'meld.label': { one: '{name}: {n} карта, диких {wilds}', few: '{name}: {n} карты, диких {wilds}',
    many: '{name}: {n} карт, диких {wilds}', other: '{name}: {n} карты, диких {wilds}' },
  'meld.add_hint': 'Нажмите, чтобы добавить выбранные карты к этой комбинации',
  'canasta.natural': 'чистая', 'canasta.mixed': 'смешанная', 'canasta.wild': 'дикая',
  'canasta.label': 'Канаста, {kind}. {label}',
  stock: 'Прикуп', stock_label: { one: 'Прикуп: {n} карта', few: 'Прикуп: {n} карты', many: 'Прикуп: {n} карт', other: 'Прикуп: {n} карты' },
  stock_hint: 'нажмите, чтобы взять карту',
  pile: 'Сброс', pile_label: { one: 'Сброс: {n} карта', few: 'Сброс: {n} карты', many: 'Сброс: {n} карт', other: 'Сброс: {n} карты' },
  top_card: 'сверху {card}', pile_review: 'Остальные карты сброса, сверху вниз',
  say: 'Сказать', chat: 'Фраза в чат', pile_empty: 'пусто', frozen: 'заморожен',
  frozen_for_you: 'заморожен для вас, пока вы не открылись',
  'blocked.wild': 'закрыт дикой картой', 'blocked.black3': 'закрыт чёрной тройкой', 'blocked.red3': 'закрыт красной тройкой',
  pile_hint_take: 'нажмите, чтобы взять его выбранными картами', pile_hint_discard: 'нажмите, чтобы сбросить выбранную карту',
  staged_group: { one: 'Комбинация из {n} карты, {points} очков: нажмите, чтобы вернуть', other: 'Комбинация из {n} карт, {points} очков: нажмите, чтобы вернуть' },
  unstage: 'Вернуть в руку',
  opening_count: 'Открытие: {points} из {minimum}', points_n: '{n} очков',
  your_hand: { one: 'Ваши карты: {n} карта', few: 'Ваши карты: {n} карты', many: 'Ваши карты: {n} карт', other: 'Ваши карты: {n} карты' },
  watching: 'Вы смотрите игру за этим столом.',
  'status.waiting': { one: 'Ждём ещё {n} игрока.', other: 'Ждём ещё {n} игроков.' },
  'status.deal_over': 'Сдача окончена; следующая начнётся через мгновение.',
  'status.game_over': 'Игра окончена.',
  'status.answer': '{name} спрашивает вас: можно выйти?',
  'status.wait_answer': 'Вы спросили партнёра. Ждём ответа…',
  'status.asked': '{name} спрашивает партнёра, можно ли выйти.',
  'status.your_draw': 'Ваш ход: возьмите карту из прикупа или сброс.',
  'status.your_play': 'Выкладывайте комбинации, затем сбросьте карту.',
  'status.must_go_out': 'Партнёр разрешил: в этот ход вы должны выйти.',
  'status.may_not_go_out': 'Партнёр не разрешил: в этот ход выходить нельзя.',
  'status.other_turn': 'Ходит {name}.',
  'prompt.question': '{name} спрашивает: можно выйти?',
  'won.we': 'Мы выиграли!', 'won.they': 'Они выиграли.', 'won.team': 'Выиграли: {team}.',
  'reason.went_out': '{name} вышел из игры.', 'reason.concealed': '{name} вышел из игры с руки (закрыто).',
  'reason.stock_exhausted': 'Прикуп кончился.',
  deal_over_n: 'Сдача {n} окончена', next_deal: 'Следующая сдача начнётся через мгновение.',
  breakdown: 'Счёт сдачи',
  'part.cards': 'Выложенные карты', 'part.canastas': 'Канасты', 'part.threes': 'Бонусные тройки',
  'part.going_out': 'Выход', 'part.hand': 'Карты на руке', 'part.penalties': 'Штрафы', 'part.total': 'Итого',
  'sheet.caption': 'Игра до {target}', 'sheet.deal': 'Сдача', 'sheet.empty': 'Ещё ни одна сдача не сыграна.',
  'chart.label': 'Сумма очков: {totals}; цель {target}',
  choose_one_discard: 'Выберите ровно одну карту для сброса.',
  choose_cards_first: 'Сначала выберите карты.',
  reconnecting: 'Связь потеряна: подключаемся снова…',
  'log.deal': 'Роздана сдача {n}.',
  'move.draw': '{name} взял карту из прикупа.', 'move.pickup': '{name} взял сброс картами {cards}',
  'move.to_meld': 'верхняя карта к комбинации', 'move.meld': '{name} выложил {cards}',
  'move.discard': '{name} сбросил {card}.', 'move.ask': '{name} спросил партнёра: можно выйти?',
  'move.answer_yes': '{name} ответил «да».', 'move.answer_no': '{name} ответил «нет».',
  'move.pass': '{name} спасовал.', 'move.by_stand_in': '(за него сыграл компьютер)',
  'move.by_timer': '(время вышло)',
  'replay.title': 'История сдач', 'replay.game': 'Игра', 'replay.deal': 'Сдача',
  'replay.download': 'Скачать запись', 'replay.back': 'К столу',
  'replay.first': 'В начало', 'replay.prev': 'Предыдущий ход', 'replay.next': 'Следующий ход', 'replay.last': 'В конец',
  'replay.play': 'Воспроизвести', 'replay.pause': 'Пауза', 'replay.step': 'Ход {n} из {total}',
  'replay.start': 'Карты розданы.', 'replay.slider': 'Ход', 'replay.none': 'Ещё ни одна сдача не закончена.',
  'replay.hand_of': 'Карты: {name}',
};

const STRINGS = { en: EN, ru: RU };

function browserLanguage() {
  const saved = prefs.lang;
  if (LANGUAGES.includes(saved)) return saved;
  for (const tag of navigator.languages || [navigator.language]) {
    const code = (tag || '').slice(0, 2).toLowerCase();
    if (LANGUAGES.includes(code)) return code;
  }
  return 'en';
}

let current = browserLanguage();
document.documentElement.lang = current;

export function lang() { return current; }

export function setLang(code) {
  current = code;
  prefs.lang = code;
  document.documentElement.lang = code;
}

// The text of `key` with `{name}` parameters filled in; plural forms are chosen by `n`.
export function t(key, params = {}) {
  let text = STRINGS[current][key] ?? EN[key] ?? key;
  if (typeof text === 'object') text = text[new Intl.PluralRules(current).select(params.n ?? 0)] ?? text.other;
  return text.replace(/\{(\w+)\}/g, (match, name) => (name in params ? String(params[name]) : match));
}

// Fill every element marked with data-i18n (text), data-i18n-aria (label) or
// data-i18n-placeholder.
export function translatePage(root = document) {
  for (const node of root.querySelectorAll('[data-i18n]')) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll('[data-i18n-aria]')) node.setAttribute('aria-label', t(node.dataset.i18nAria));
  for (const node of root.querySelectorAll('[data-i18n-placeholder]')) node.placeholder = t(node.dataset.i18nPlaceholder);
}

export function keys(language) { return Object.keys(STRINGS[language]); }
