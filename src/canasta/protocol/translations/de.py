"""Every text the server sends, in German, keyed as the English ones are: wire errors (by
code), the sentences of refused moves (`refusal_texts`), hint reasons, chat phrases and the
rule sets' descriptions."""

# ruff: noqa: E501  (sentences read better unbroken)
from __future__ import annotations

from collections.abc import Mapping

ERRORS: Mapping[str, str] = {
    "bad_json": "Die Nachricht ist kein gültiges JSON.",
    "bad_message": "Eine Nachricht muss ein einzelnes JSON-Objekt mit dem Feld „type“ sein.",
    "unknown_type": "Unbekannter Nachrichtentyp „{type}“.",
    "missing_field": "Der Nachricht fehlt das Feld „{field}“.",
    "bad_field": "Das Feld „{field}“ hat einen ungültigen Wert.",
    "bad_action": "Der Zug ist nicht richtig geschrieben (siehe FORMATS.md); Einzelheiten im Feld detail.",
    "too_large": "Die Nachricht ist zu groß: höchstens {limit} Bytes.",
    "rate_limited": "Zu viele Nachrichten: diese wurde übergangen, bitte langsamer senden.",
    "hello_required": "Sende zuerst „hello“.",
    "already_hello": "Diese Verbindung hat „hello“ schon gesendet.",
    "bad_token": "Dieser Platzschlüssel gehört zu keinem Platz an diesem Tisch.",
    "not_seated": "Zuschauer können das nicht: nimm zuerst Platz.",
    "wrong_seat": "Dieser Zug gehört zu Platz {seat}, du sitzt aber auf Platz {own}.",
    "not_your_turn": "Du bist nicht am Zug: Platz {to_move} ist dran.",
    "stale_state": "Der Tisch hat sich geändert (Version {current}, du hast {seen} gesehen): schau noch einmal und versuch es erneut.",
    "illegal_action": "{reason}",
    "not_started": "Die Partie hat noch nicht begonnen: sie wartet, bis alle Plätze besetzt sind.",
    "game_over": "Die Partie ist vorbei: starte eine Revanche, um weiterzuspielen.",
    "game_not_over": "Eine Revanche gibt es erst, wenn die Partie vorbei ist.",
    "deal_not_over": "Dieses Spiel ist noch nicht vorbei: seine Aufzeichnung enthält verdeckte Karten.",
    "deal_in_progress": "Das Spiel läuft noch: das nächste kann beginnen, wenn es vorbei ist.",
    "no_hint": "Tipps gibt es nur für deine eigene Entscheidung während eines Spiels.",
    "hint_timeout": "Der Tipp hat zu lange gedauert: bitte versuch es noch einmal.",
    "hint_limited": "Zu viele Tipps für deinen Platz: versuch es in {seconds} s wieder.",
    "review_limited": "Für dich oder an diesem Tisch wird schon eine Analyse erstellt: warte, bis sie fertig ist.",
    "chat_disabled": "Freier Chat ist an diesem Tisch ausgeschaltet: nutze die vorgegebenen Sätze.",
    "unknown_phrase": "Unbekannter Chat-Satz „{phrase}“.",
    "table_not_found": "Diesen Tisch gibt es nicht.",
    "table_full": "Alle Plätze für Menschen an diesem Tisch sind besetzt: du kannst zuschauen.",
    "seat_taken": "Platz {seat} ist schon besetzt.",
    "not_human_seat": "Auf Platz {seat} spielt der Computer.",
    "bad_settings": "Ungültige Tischeinstellungen (Feld „{field}“); Einzelheiten im Feld detail.",
    "too_many_tables": "Von deiner Adresse wurden zu viele Tische angelegt: versuch es in einer Minute wieder.",
    "too_many_connections": "Zu viele Verbindungen zu diesem Tisch oder von deiner Adresse: schließ einige und versuch es erneut.",
    "server_busy": "Der Server hat so viele Tische, wie er kann: bitte versuch es später.",
    "storage_busy": "Der Server konnte das nicht rechtzeitig speichern (seine Datenbank ist belegt): versuch es gleich noch einmal; der Tisch zeigt, was gespeichert wurde.",
    "not_found": "Unter dieser Adresse gibt es nichts.",
    "bad_method": "Diese Adresse nimmt diese Methode nicht an.",
    "internal_error": "Der Server konnte die Anfrage nicht ausführen; nichts wurde geändert. Bitte versuch es erneut.",
    "chat_limited": "Zu viele Chatzeilen von deinem Platz oder an diesem Tisch: die Zeile wurde nicht gesendet, warte einen Moment.",
    "table_damaged": "Die gespeicherten Partien dieses Tisches lassen sich nicht lesen; der Betreiber des Servers hat die Einzelheiten.",
    "too_many_requests": "Zu viele Anfragen von deiner Adresse: versuch es in {seconds} s erneut.",
}

RANKS: Mapping[str, str] = {
    "A": "Asse", "K": "Könige", "Q": "Damen", "J": "Buben", "10": "Zehnen", "9": "Neunen", "8": "Achten",
    "7": "Siebenen", "6": "Sechsen", "5": "Fünfen", "4": "Vieren", "3": "schwarze Dreien", "wild": "Joker und Zweien",
}  # fmt: skip

RANK: Mapping[str, str] = {
    "A": "Ass", "K": "König", "Q": "Dame", "J": "Bube", "10": "Zehn", "9": "Neun", "8": "Acht", "7": "Sieben",
    "6": "Sechs", "5": "Fünf", "4": "Vier", "3": "schwarze Drei", "wild": "Joker oder Zwei",
}  # fmt: skip

METHODS: Mapping[str, str] = {
    "pair": "zwei natürliche Karten (Wert: {ranks})",
    "natural_wild": "eine natürliche Karte dieses Werts und einen Joker oder eine Zwei",
    "layoff": "eine eigene Meldung (Wert: {ranks}), an die die oberste Karte passt",
    "or": " oder ",
}

REFUSALS: Mapping[str, str] = {
    "awaiting_answer": "Warte zuerst die Antwort deines Partners ab.",
    "bad_meld": "Diese Karten ergeben keine gültige Meldung.",
    "bad_meld.too_few": "Eine neue Meldung (Wert: {ranks}) braucht mindestens drei Karten.",
    "bad_meld.too_big": "Eine Meldung hat höchstens {n} Karten.",
    "bad_meld.no_wild_melds": "Nach diesen Regeln gibt es keine Meldungen nur aus Jokern und Zweien.",
    "bad_meld.wild_canasta": "Joker und Zweien allein werden nur als ganze Canasta (sieben oder mehr) in einem Zug ausgelegt, und nichts wird angelegt.",
    "bad_meld.threes": "Schwarze Dreien werden nur zu dritt oder zu viert ausgelegt, ohne Joker.",
    "bad_meld.naturals": "Eine Meldung (Wert: {ranks}) braucht mindestens {n} natürliche Karten.",
    "bad_meld.max_wilds": "Eine Meldung hat höchstens {n} Joker und Zweien.",
    "bad_meld.ratio_le": "Eine Meldung darf nicht mehr Joker und Zweien als natürliche Karten haben.",
    "bad_meld.ratio_lt": "Eine Meldung braucht mehr natürliche Karten als Joker und Zweien.",
    "bad_meld.sevens": "An Siebenen kommen keine Joker.",
    "bad_meld.aces_opening": "Joker kommen nur beim ersten Auslegen deines Teams zu den Assen.",
    "bad_meld.rule_of_five": "Nach dem ersten Auslegen kommen Joker nur an Meldungen mit fünf oder mehr natürlichen Karten.",
    "bad_meld.wild_pending": "Solange deine Meldung aus Jokern nicht fertig ist, kommen Joker nur an sie.",
    "bad_meld.red_three": "Rote Dreien werden nie gemeldet: sie zählen für sich.",
    "bad_pickup": "Mit diesen Karten kann der Stapel nicht genommen werden.",
    "bad_pickup.top_only_off": "Nach diesen Regeln darf man nicht nur die oberste Karte kaufen.",
    "bad_pickup.one_card": "Ein Stapel aus einer Karte wird ganz genommen.",
    "bad_pickup.wrong_cards": "Zur obersten Karte {card} passen nur Karten dieses Werts ({ranks}) oder Joker.",
    "bad_pickup.method": "Um den Stapel zu nehmen, brauchst du {how}.",
    "black_threes": "Schwarze Dreien dürfen nur beim Ausmachen ausgelegt werden.",
    "cannot_ask": "Du kannst deinen Partner jetzt nicht fragen.",
    "cannot_go_out": "Du kannst jetzt nicht ausmachen.",
    "cannot_go_out.canastas": "Du kannst noch nicht ausmachen: nötige Canastas {need}, dein Team hat {have}.",
    "cannot_go_out.special": "Eine unfertige Meldung aus Siebenen, Assen oder Jokern verhindert das Ausmachen.",
    "cannot_go_out.partner_no": "Dein Partner hat Nein gesagt: du darfst in diesem Zug nicht ausmachen.",
    "cannot_go_out.must_ask": "Frag deinen Partner, bevor du ausmachst.",
    "cannot_pass": "Passen darfst du nur, wenn der Talon leer ist: zieh eine Karte.",
    "card_not_in_hand": "Du hast {card} nicht auf der Hand.",
    "dead_rank": "Es dürfen keine weiteren Karten gemeldet werden (Wert: {ranks}): dieser Wert ist tot.",
    "deal_not_over": "Das Spiel ist noch nicht vorbei.",
    "deal_over": "Das Spiel ist vorbei.",
    "discard_restricted": "Diese Karte darfst du jetzt nicht ablegen.",
    "discard_restricted.three": "Dreien werden nie abgelegt.",
    "discard_restricted.wild": "Einen Joker darfst du nur beim Ausmachen ablegen oder wenn du nichts anderes hast.",
    "discard_restricted.ace_seven": "Auf einen leeren Stapel kommen Asse und Siebenen nur, wenn du keine andere natürliche Karte hast.",
    "discard_restricted.dead": "Auf einen leeren Stapel kommt eine Karte eines toten Werts nur, wenn nichts anderes geht.",
    "empty_group": "Wähle zuerst die Karten zum Auslegen.",
    "empty_meld": "Wähle zuerst die Karten zum Auslegen.",
    "empty_pile": "Der Stapel ist leer.",
    "frozen_pile.frozen": "Der Stapel ist eingefroren: du brauchst zwei natürliche Karten von der Hand (Wert: {ranks}).",
    "frozen_pile.unopened": "Dein Team ist noch nicht herausgekommen: für den Stapel brauchst du zwei natürliche Karten von der Hand (Wert: {ranks}).",
    "frozen_pile.always": "Der Stapel wird nur mit zwei natürlichen Karten von der Hand genommen (Wert: {ranks}).",
    "game_over": "Die Partie ist vorbei.",
    "mixed_ranks": "Eine Meldung hat Karten eines Werts (und Joker).",
    "must_discard": "Behalte eine Karte, um am Ende deines Zugs abzulegen.",
    "must_meld_out": "Nachdem du einen Stapel mit schwarzer Drei oben genommen hast, musst du alle Karten auslegen.",
    "must_take_pile": "Der Talon ist leer und die oberste Karte passt an eine deiner Meldungen: nimm den Stapel.",
    "no_deal": "Es wurde noch kein Spiel gegeben.",
    "no_question": "Niemand hat gefragt, ob er ausmachen darf.",
    "not_your_turn": "Du bist nicht am Zug.",
    "opening_composition": "Dein erstes Auslegen braucht drei oder mehr natürliche Karten eines Werts ohne Joker oder eine Meldung aus Jokern.",
    "opening_minimum": "Dein erstes Auslegen zählt {count} Punkte; du brauchst mindestens {minimum}.",
    "pile_blocked": "Der Stapel kann jetzt nicht genommen werden.",
    "pile_blocked.wild_top": "Ein Joker oben sperrt den Stapel: er kann jetzt nicht genommen werden.",
    "pile_blocked.black3_top": "Eine schwarze Drei oben sperrt den Stapel: zieh vom Talon.",
    "pile_blocked.black3_go_out": "Einen Stapel mit schwarzer Drei oben darf man nur nehmen, um sofort auszumachen.",
    "pile_blocked.red3_top": "Eine rote Drei oben sperrt den Stapel, bis sie bedeckt ist.",
    "pile_blocked.one_card": "Mit nur einer Karte auf der Hand darfst du keinen Stapel aus einer Karte nehmen.",
    "pile_blocked.canasta_rank": "Dein Team hat schon eine Canasta dieses Werts ({ranks}): dafür kann der Stapel nicht genommen werden.",
    "pile_blocked.dead_rank": "Dieser Wert ({ranks}) darf nicht mehr gemeldet werden, darum kann der Stapel dafür nicht genommen werden.",
    "stock_empty": "Der Talon ist leer.",
    "top_only": "Wer nur die oberste Karte kauft, muss alle Karten auslegen (ohne abzulegen).",
    "wrong_phase.draw": "Zieh zuerst eine Karte oder nimm den Stapel.",
    "wrong_phase.play": "Du hast in diesem Zug schon gezogen.",
}

FALLBACK = "Die Regeln erlauben diesen Zug nicht."
JOKER = "einen Joker"

HINTS: Mapping[str, str] = {
    "draw": "Zieh vom Talon: der Stapel kann jetzt nicht genommen werden.",
    "draw_over_pile": "Zieh vom Talon: den Stapel zu nehmen lohnt sich jetzt nicht.",
    "pickup": "Nimm den Stapel mit {cards}: {n} Karten mehr kommen auf deine Hand.",
    "pickup_layoff": "Nimm den Stapel und lege die oberste Karte an deine Meldung: {n} Karten mehr kommen auf deine Hand.",
    "lay": "Lege {cards} aus",
    "add": "Lege {adds} an",
    "lay_add": "Lege {cards} aus und {adds} an",
    "add_to": "{cards} an deine {ranks}",
    "and": " und ",
    "canasta": "{move}: das vollendet eine Canasta (Wert: {ranks}).",
    "opening": "{move}: das erste Auslegen deines Teams, {points} Punkte.",
    "meld": "{move}: {points} Punkte mehr auf dem Tisch.",
    "discard_black3": "Lege {card} ab: eine schwarze Drei hindert den nächsten Spieler daran, den Stapel zu nehmen.",
    "discard": "Lege {card} ab: von deinen Karten brauchst du sie am wenigsten.",
    "ask": "Frag deinen Partner: du könntest in diesem Zug ausmachen.",
    "answer_yes": "Sag Ja: dein Team ist bereit auszumachen.",
    "answer_no": "Sag Nein: dein Team sollte weiterspielen.",
    "pass": "Passe: der Talon ist leer und der Stapel hilft nicht.",
    "joker": "Joker",
}

PHRASES: Mapping[str, str] = {
    "hello": "Hallo!", "good_luck": "Viel Glück!", "well_played": "Gut gespielt!", "thanks": "Danke!",
    "oops": "Hoppla!", "hurry": "Bitte etwas schneller.", "wait": "Einen Moment, bitte.",
    "good_game": "Gutes Spiel!", "rematch": "Revanche?", "bye": "Tschüss!",
}  # fmt: skip

DESCRIPTIONS: Mapping[str, str] = {
    "classic": "Das bekannteste Spiel: Partner sitzen sich gegenüber, melden Karten gleichen Werts und bilden Canastas aus sieben Karten. Für 2 bis 6 Spieler.",
    "modern-american": "Der heutige amerikanische Stil: je 13 Karten, der Stapel immer eingefroren, Meldungen aus Jokern erlaubt, und zum Ausmachen braucht man zwei Canastas.",
    "online": "Wie auf den meisten Kartenseiten: eine Canasta aus Jokern zählt 2000, eine schwarze Drei, die auf der Hand bleibt, kostet 100.",
    "mendelev": "Ein älterer Stil: man darf ausmachen, indem man nur die oberste Karte des Stapels kauft, und hat dein Team eine Canasta eines Werts, nimmt dieser Wert den Stapel nicht mehr.",
}
