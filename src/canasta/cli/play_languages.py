"""The terminal game's texts in Spanish, Portuguese (Brazil) and German: the same keys as the
English ones in `canasta.cli.play_text`, the words the moves are typed with, and the names of the
parts of a deal's score. The browser's words are used (mazo/pozo, monte/lixo, Talon/Stapel)."""

from __future__ import annotations

from typing import Final

SPANISH: Final[dict[str, str]] = {
    # seats and teams
    "you": "Tú",
    "seat": "Asiento {seat}",
    "partner": "Asiento {seat} (compañero)",
    "your_team": "Tu equipo",
    "team": "Equipo {team}",
    "team_seats": "{name} (asientos {seats})",
    # the table
    "title": "=== Mano {deal} · {variant}, {players} jugadores · partida a {target} ===",
    "team_line": "{team} {score}, {status}: {melds}",
    "opened": "abrió",
    "to_open": "{minimum} para abrir",
    "stock_pile": "Mazo {stock} · Pozo {pile}",
    "pile_empty": "vacío",
    "pile_cards": "{size}, arriba {top}",
    "pile_whole": "{size}: {cards}",
    "frozen": ", CONGELADO",
    "no_melds": "sin juegos",
    "meld": "{rank} [{cards}]",
    "canasta": "{rank} {kind} ({count})",
    "wild_rank": "comodines",
    "canasta_natural": "canasta limpia",
    "canasta_mixed": "canasta sucia",
    "canasta_wild": "canasta de comodines",
    "threes": " · treses de premio {cards}",
    "hands": "Manos: {entries}",
    "hand_entry": "{name} {count}",
    "hand_known": "{name} {count} (se saben: {cards})",
    "sitting_out": "{name} no juega esta mano",
    "phase_draw": "roba del mazo o toma el pozo",
    "phase_play": "baja juegos y descarta",
    "phase_answer": "responde a tu compañero",
    "permission": "{asker} te pide permiso para cerrar",
    "your_hand": "Tu mano ({count}): {cards}",
    # moves
    "moves": "Tus jugadas ({phase}):",
    "ask_cost": "{ask} ({cost})",
    "more": "  ... hay más jugadas: escribe + para verlas",
    "ask_optional_binding": "la respuesta de tu compañero te obliga",
    "ask_mandatory": "necesario antes de cerrar",
    "ask_once_per_deal_after_draw": "una vez por mano; la respuesta de tu compañero te obliga",
    "move": "{number}) {action}",
    "prompt": "Tu jugada (un número, una jugada como 'descartar 9C' o 'ayuda'): ",
    "drew": "Robaste {cards}.",
    "took": "Tomaste el pozo: {cards}.",
    "took_top": "Tomaste el pozo: todo fue a tus juegos.",
    "bot_turn": "{moves}.",
    "pile_size": " (un pozo de {count})",
    "said_draw": "{name} roba del mazo",
    "said_pickup": "{name} toma el pozo con {cards}",
    "said_pickup_layoff": "{name} toma el pozo, añadiendo la carta de arriba a un juego",
    "said_top_only": "{name} compra solo la carta de arriba con {cards}",
    "said_top_only_layoff": "{name} compra solo la carta de arriba, añadiéndola a un juego",
    "said_melds": " y baja {cards}",
    "said_meld": "{name} baja {cards}",
    "said_discard": "{name} descarta {card}",
    "said_ask": "{name} pregunta a su compañero: ¿puedo cerrar?",
    "said_yes": "{name} responde que sí",
    "said_no": "{name} responde que no",
    "said_pass": "{name} pasa",
    "bad_input": "No se entiende: {message}",
    "bad_number": "No hay jugada {number}; elige de 1 a {count}.",
    "help": (
        "Escribe el número de una jugada de la lista, o la jugada:\n"
        "  robar                        robar del mazo\n"
        "  tomar pozo KS KH             tomar el pozo bajando la de arriba con KS KH\n"
        "  tomar pozo                   tomar el pozo, la de arriba va a tu juego\n"
        "  tomar pozo KS KH + QS QH QD  tomar el pozo y bajar más (para abrir)\n"
        "  bajar KS KH KD, 7S 7H 2C     bajar juegos o añadir a los de tu equipo\n"
        "                               (los grupos se separan con ',')\n"
        "  bajar K:[2C]                 añadir un comodín solo a tu juego de reyes\n"
        "  descartar 9C                 descartar (termina tu turno)\n"
        "  preguntar / sí / no          preguntar si puedes cerrar / responder\n"
        "  pasar                        no tomar el pozo cuando el mazo se acabó\n"
        "Cartas: valor A K Q J 10 (o T) 9..2, palo S (picas) H (corazones)\n"
        "D (diamantes) C (tréboles); JK es un comodín. También se entienden las\n"
        "jugadas en inglés (draw, pickup, meld, ...).\n"
        "Además: 'mesa' muestra la mesa otra vez, '+' el resto de una lista larga,\n"
        "'puntos' la hoja de puntos, 'salir' deja la partida."
    ),
    # parsing typed actions
    "empty": "escribe una jugada",
    "unknown_verb": "jugada desconocida '{verb}' (prueba 'ayuda')",
    "one_card": "'descartar' lleva exactamente una carta",
    "no_groups": "'bajar' necesita al menos un grupo de cartas",
    "answer_word": "responde 'sí' o 'no'",
    "extra_words": "'{verb}' no lleva cartas",
    "bad_json": "no es una jugada JSON: {message}",
    "unknown_card": "carta desconocida '{text}'",
    "unknown_rank": "valor de juego desconocido '{text}'",
    # end of a deal and of the game
    "deal_over": "Terminó la mano {deal}: {how}.",
    "went_out": "{name} cerró",
    "went_out_concealed": "{name} cerró de mano (todo en un turno)",
    "stock_exhausted": "se acabó el mazo",
    "breakdown_part": "parte",
    "sheet": "Hoja de puntos",
    "sheet_deal": "mano",
    "sheet_total": "total",
    "continue": "Pulsa Enter para la siguiente mano (o escribe 'salir'): ",
    "winner_you": "Tu equipo gana la partida con {score} puntos.",
    "winner": "{team} gana la partida con {score} puntos.",
    "bye": "Dejaste la partida. Puntos finales: {scores}.",
    "start": "{variant}, {players} jugadores, a {target} (semilla {seed}). Eres el asiento 0; {others}.",
    "other_bot": "{name}: computadora «{bot}»",
    "level_random": "al azar",
    "level_easy": "fácil",
    "level_normal": "normal",
    "level_hard": "difícil",
}

PORTUGUESE: Final[dict[str, str]] = {
    # seats and teams
    "you": "Você",
    "seat": "Lugar {seat}",
    "partner": "Lugar {seat} (parceiro)",
    "your_team": "Sua dupla",
    "team": "Dupla {team}",
    "team_seats": "{name} (lugares {seats})",
    # the table
    "title": "=== Mão {deal} · {variant}, {players} jogadores · partida até {target} ===",
    "team_line": "{team} {score}, {status}: {melds}",
    "opened": "abriu",
    "to_open": "{minimum} para abrir",
    "stock_pile": "Monte {stock} · Lixo {pile}",
    "pile_empty": "vazio",
    "pile_cards": "{size}, em cima {top}",
    "pile_whole": "{size}: {cards}",
    "frozen": ", CONGELADO",
    "no_melds": "nenhum jogo",
    "meld": "{rank} [{cards}]",
    "canasta": "{rank} {kind} ({count})",
    "wild_rank": "curingas",
    "canasta_natural": "canastra limpa",
    "canasta_mixed": "canastra suja",
    "canasta_wild": "canastra de curingas",
    "threes": " · três de bônus {cards}",
    "hands": "Mãos: {entries}",
    "hand_entry": "{name} {count}",
    "hand_known": "{name} {count} (conhecidas: {cards})",
    "sitting_out": "{name} não joga esta mão",
    "phase_draw": "compre do monte ou pegue o lixo",
    "phase_play": "baixe jogos e descarte",
    "phase_answer": "responda ao seu parceiro",
    "permission": "{asker} pede sua permissão para bater",
    "your_hand": "Sua mão ({count}): {cards}",
    # moves
    "moves": "Suas jogadas ({phase}):",
    "ask_cost": "{ask} ({cost})",
    "more": "  ... há mais jogadas: digite + para vê-las",
    "ask_optional_binding": "a resposta do parceiro vale para você",
    "ask_mandatory": "obrigatório antes de bater",
    "ask_once_per_deal_after_draw": "uma vez por mão; a resposta do parceiro vale para você",
    "move": "{number}) {action}",
    "prompt": "Sua jogada (um número, uma jogada como 'descartar 9C' ou 'ajuda'): ",
    "drew": "Você comprou {cards}.",
    "took": "Você pegou o lixo: {cards}.",
    "took_top": "Você pegou o lixo: tudo foi para os jogos.",
    "bot_turn": "{moves}.",
    "pile_size": " (um lixo de {count})",
    "said_draw": "{name} compra do monte",
    "said_pickup": "{name} pega o lixo com {cards}",
    "said_pickup_layoff": "{name} pega o lixo, juntando a carta de cima a um jogo",
    "said_top_only": "{name} compra só a carta de cima com {cards}",
    "said_top_only_layoff": "{name} compra só a carta de cima, juntando-a a um jogo",
    "said_melds": " e baixa {cards}",
    "said_meld": "{name} baixa {cards}",
    "said_discard": "{name} descarta {card}",
    "said_ask": "{name} pergunta ao parceiro: posso bater?",
    "said_yes": "{name} responde sim",
    "said_no": "{name} responde não",
    "said_pass": "{name} passa",
    "bad_input": "Não deu para entender: {message}",
    "bad_number": "Não há jogada {number}; escolha de 1 a {count}.",
    "help": (
        "Digite o número de uma jogada da lista, ou a jogada:\n"
        "  comprar                      comprar do monte\n"
        "  pegar lixo KS KH             pegar o lixo baixando a de cima com KS KH\n"
        "  pegar lixo                   pegar o lixo, a de cima vai para o seu jogo\n"
        "  pegar lixo KS KH + QS QH QD  pegar o lixo e baixar mais (para abrir)\n"
        "  baixar KS KH KD, 7S 7H 2C    baixar jogos ou juntar aos da sua dupla\n"
        "                               (os grupos se separam com ',')\n"
        "  baixar K:[2C]                juntar um curinga sozinho ao jogo de reis\n"
        "  descartar 9C                 descartar (termina a sua vez)\n"
        "  perguntar / sim / não        perguntar se pode bater / responder\n"
        "  passar                       não pegar o lixo quando o monte acabou\n"
        "Cartas: valor A K Q J 10 (ou T) 9..2, naipe S (espadas) H (copas)\n"
        "D (ouros) C (paus); JK é um curinga. As jogadas em inglês (draw,\n"
        "pickup, meld, ...) também valem.\n"
        "Também: 'mesa' mostra a mesa de novo, '+' o resto de uma lista longa,\n"
        "'placar' a folha de pontos, 'sair' deixa a partida."
    ),
    # parsing typed actions
    "empty": "digite uma jogada",
    "unknown_verb": "jogada desconhecida '{verb}' (tente 'ajuda')",
    "one_card": "'descartar' leva exatamente uma carta",
    "no_groups": "'baixar' precisa de pelo menos um grupo de cartas",
    "answer_word": "responda 'sim' ou 'não'",
    "extra_words": "'{verb}' não leva cartas",
    "bad_json": "não é uma jogada JSON: {message}",
    "unknown_card": "carta desconhecida '{text}'",
    "unknown_rank": "valor de jogo desconhecido '{text}'",
    # end of a deal and of the game
    "deal_over": "A mão {deal} acabou: {how}.",
    "went_out": "{name} bateu",
    "went_out_concealed": "{name} bateu de mão (tudo numa vez)",
    "stock_exhausted": "o monte acabou",
    "breakdown_part": "parte",
    "sheet": "Placar",
    "sheet_deal": "mão",
    "sheet_total": "total",
    "continue": "Tecle Enter para a próxima mão (ou digite 'sair'): ",
    "winner_you": "Sua dupla vence a partida com {score} pontos.",
    "winner": "{team} vence a partida com {score} pontos.",
    "bye": "Você saiu da partida. Placar final: {scores}.",
    "start": "{variant}, {players} jogadores, até {target} (semente {seed}). Você é o lugar 0; {others}.",
    "other_bot": "{name}: computador «{bot}»",
    "level_random": "aleatório",
    "level_easy": "fácil",
    "level_normal": "médio",
    "level_hard": "difícil",
}

GERMAN: Final[dict[str, str]] = {
    # seats and teams
    "you": "Du",
    "seat": "Platz {seat}",
    "partner": "Platz {seat} (Partner)",
    "your_team": "Dein Team",
    "team": "Team {team}",
    "team_seats": "{name} (Plätze {seats})",
    # the table
    "title": "=== Runde {deal} · {variant}, {players} Spieler · Partie bis {target} ===",
    "team_line": "{team} {score}, {status}: {melds}",
    "opened": "herausgekommen",
    "to_open": "{minimum} zum Herauskommen",
    "stock_pile": "Talon {stock} · Stapel {pile}",
    "pile_empty": "leer",
    "pile_cards": "{size}, oben {top}",
    "pile_whole": "{size}: {cards}",
    "frozen": ", EINGEFROREN",
    "no_melds": "keine Meldungen",
    "meld": "{rank} [{cards}]",
    "canasta": "{rank} {kind} ({count})",
    "wild_rank": "Joker",
    "canasta_natural": "reine Canasta",
    "canasta_mixed": "gemischte Canasta",
    "canasta_wild": "Joker-Canasta",
    "threes": " · Bonus-Dreien {cards}",
    "hands": "Auf der Hand: {entries}",
    "hand_entry": "{name} {count}",
    "hand_known": "{name} {count} (bekannt: {cards})",
    "sitting_out": "{name} setzt diese Runde aus",
    "phase_draw": "vom Talon ziehen oder den Stapel nehmen",
    "phase_play": "melden und ablegen",
    "phase_answer": "deinem Partner antworten",
    "permission": "{asker} fragt dich, ob er ausmachen darf",
    "your_hand": "Deine Hand ({count}): {cards}",
    # moves
    "moves": "Deine Züge ({phase}):",
    "ask_cost": "{ask} ({cost})",
    "more": "  ... weitere Züge: tippe +, um sie zu sehen",
    "ask_optional_binding": "die Antwort des Partners bindet dich",
    "ask_mandatory": "vor dem Ausmachen nötig",
    "ask_once_per_deal_after_draw": "einmal pro Runde; die Antwort des Partners bindet dich",
    "move": "{number}) {action}",
    "prompt": "Dein Zug (eine Nummer, ein Zug wie 'ablegen 9C' oder 'hilfe'): ",
    "drew": "Du hast {cards} gezogen.",
    "took": "Du hast den Stapel genommen: {cards}.",
    "took_top": "Du hast den Stapel genommen: alles ging in Meldungen.",
    "bot_turn": "{moves}.",
    "pile_size": " (ein Stapel aus {count})",
    "said_draw": "{name} zieht vom Talon",
    "said_pickup": "{name} nimmt den Stapel mit {cards}",
    "said_pickup_layoff": "{name} nimmt den Stapel und legt die oberste Karte an eine Meldung",
    "said_top_only": "{name} kauft nur die oberste Karte mit {cards}",
    "said_top_only_layoff": "{name} kauft nur die oberste Karte und legt sie an eine Meldung",
    "said_melds": " und meldet {cards}",
    "said_meld": "{name} meldet {cards}",
    "said_discard": "{name} legt {card} ab",
    "said_ask": "{name} fragt den Partner: darf ich ausmachen?",
    "said_yes": "{name} antwortet ja",
    "said_no": "{name} antwortet nein",
    "said_pass": "{name} passt",
    "bad_input": "Nicht lesbar: {message}",
    "bad_number": "Es gibt keinen Zug {number}; wähle 1 bis {count}.",
    "help": (
        "Tippe die Nummer eines Zugs aus der Liste oder den Zug selbst:\n"
        "  ziehen                         vom Talon ziehen\n"
        "  stapel nehmen KS KH            Stapel nehmen, oberste Karte mit KS KH\n"
        "  stapel nehmen                  Stapel nehmen, oberste Karte an deine Meldung\n"
        "  stapel nehmen KS KH + QS QH QD Stapel nehmen und mehr melden (herauskommen)\n"
        "  melden KS KH KD, 7S 7H 2C      melden oder an die Meldungen deines Teams\n"
        "                                 anlegen (Gruppen mit ',' getrennt)\n"
        "  melden K:[2C]                  einen Joker allein an die Könige anlegen\n"
        "  ablegen 9C                     ablegen (beendet deinen Zug)\n"
        "  fragen / ja / nein             fragen, ob du ausmachen darfst / antworten\n"
        "  passen                         Stapel nicht nehmen, wenn der Talon leer ist\n"
        "Karten: Wert A K Q J 10 (oder T) 9..2, Farbe S (Pik) H (Herz) D (Karo)\n"
        "C (Kreuz); JK ist ein Joker. Englische Züge (draw, pickup, meld, ...)\n"
        "werden auch verstanden.\n"
        "Außerdem: 'tisch' zeigt den Tisch wieder, '+' den Rest einer langen Liste,\n"
        "'punkte' die Punkteliste, 'beenden' verlässt die Partie."
    ),
    # parsing typed actions
    "empty": "tippe einen Zug",
    "unknown_verb": "unbekannter Zug '{verb}' (versuch 'hilfe')",
    "one_card": "'ablegen' nimmt genau eine Karte",
    "no_groups": "'melden' braucht mindestens eine Gruppe von Karten",
    "answer_word": "antworte 'ja' oder 'nein'",
    "extra_words": "'{verb}' nimmt keine Karten",
    "bad_json": "kein JSON-Zug: {message}",
    "unknown_card": "unbekannte Karte '{text}'",
    "unknown_rank": "unbekannter Meldungswert '{text}'",
    # end of a deal and of the game
    "deal_over": "Runde {deal} ist vorbei: {how}.",
    "went_out": "{name} hat ausgemacht",
    "went_out_concealed": "{name} hat verdeckt ausgemacht (alles in einem Zug)",
    "stock_exhausted": "der Talon ist leer",
    "breakdown_part": "Teil",
    "sheet": "Punkteliste",
    "sheet_deal": "Runde",
    "sheet_total": "gesamt",
    "continue": "Enter für die nächste Runde (oder tippe 'beenden'): ",
    "winner_you": "Dein Team gewinnt die Partie mit {score} Punkten.",
    "winner": "{team} gewinnt die Partie mit {score} Punkten.",
    "bye": "Partie verlassen. Endstand: {scores}.",
    "start": "{variant}, {players} Spieler, bis {target} (Startwert {seed}). Du bist Platz 0; {others}.",
    "other_bot": "{name}: Computer „{bot}“",
    "level_random": "zufällig",
    "level_easy": "leicht",
    "level_normal": "mittel",
    "level_hard": "schwer",
}

#: Names of the parts of a deal's score (`canasta.rules.scoring.PARTS`, plus the total).
PART_NAMES: Final[dict[str, dict[str, str]]] = {
    "es": {
        "cards": "cartas bajadas",
        "canastas": "canastas",
        "threes": "treses de premio",
        "going_out": "cierre",
        "hand": "cartas en la mano",
        "penalties": "penalizaciones",
        "total": "total de la mano",
    },
    "pt": {
        "cards": "cartas baixadas",
        "canastas": "canastras",
        "threes": "três de bônus",
        "going_out": "batida",
        "hand": "cartas na mão",
        "penalties": "penalidades",
        "total": "total da mão",
    },
    "de": {
        "cards": "gemeldete Karten",
        "canastas": "Canastas",
        "threes": "Bonus-Dreien",
        "going_out": "Ausmachen",
        "hand": "Karten auf der Hand",
        "penalties": "Strafen",
        "total": "Summe der Runde",
    },
}

#: The moves as typed and shown in each language, and the English forms they stand for (longer
#: forms first; forms without accents are read too).
VERBS: Final[dict[str, tuple[tuple[str, str], ...]]] = {
    "es": (
        ("tomar pozo", "pickup with"),
        ("responder sí", "answer yes"),
        ("responder si", "answer yes"),
        ("responder no", "answer no"),
        ("descartar", "discard"),
        ("preguntar", "ask"),
        ("responder", "answer"),
        ("robar", "draw"),
        ("bajar", "meld"),
        ("pasar", "pass"),
        ("sí", "yes"),
        ("si", "yes"),
        ("no", "no"),
    ),
    "pt": (
        ("pegar lixo", "pickup with"),
        ("responder sim", "answer yes"),
        ("responder não", "answer no"),
        ("responder nao", "answer no"),
        ("descartar", "discard"),
        ("perguntar", "ask"),
        ("responder", "answer"),
        ("comprar", "draw"),
        ("baixar", "meld"),
        ("passar", "pass"),
        ("sim", "yes"),
        ("não", "no"),
        ("nao", "no"),
    ),
    "de": (
        ("stapel nehmen", "pickup with"),
        ("antworten nein", "answer no"),
        ("antworten ja", "answer yes"),
        ("antworten", "answer"),
        ("ablegen", "discard"),
        ("ziehen", "draw"),
        ("melden", "meld"),
        ("fragen", "ask"),
        ("passen", "pass"),
        ("nein", "no"),
        ("ja", "yes"),
    ),
}

#: "(top card only)" in each language, and a short form that may be typed instead.
TOP_ONLY: Final[dict[str, tuple[str, str]]] = {
    "es": ("(solo la carta de arriba)", "arriba"),
    "pt": ("(só a carta de cima)", "cima"),
    "de": ("(nur die oberste Karte)", "oben"),
}

#: The words of the terminal's own commands besides moves (help, table, scores, quit).
COMMANDS: Final[dict[str, dict[str, tuple[str, ...]]]] = {
    "es": {"quit": ("salir",), "help": ("ayuda",), "table": ("mesa",), "scores": ("puntos",),
           "more": ("más", "mas")},
    "pt": {"quit": ("sair",), "help": ("ajuda",), "table": ("mesa",), "scores": ("placar",),
           "more": ("mais",)},
    "de": {"quit": ("beenden",), "help": ("hilfe",), "table": ("tisch",), "scores": ("punkte",),
           "more": ("mehr",)},
}
