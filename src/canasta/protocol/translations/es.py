"""Every text the server sends, in Spanish, keyed as the English ones are: wire errors (by
code), the sentences of refused moves (`refusal_texts`), hint reasons, chat phrases and the
rule sets' descriptions."""

# ruff: noqa: E501  (sentences read better unbroken)
from __future__ import annotations

from collections.abc import Mapping

ERRORS: Mapping[str, str] = {
    "bad_json": "El mensaje no es JSON válido.",
    "bad_message": "Un mensaje debe ser un único objeto JSON con el campo «type».",
    "unknown_type": "Tipo de mensaje desconocido «{type}».",
    "missing_field": "Al mensaje le falta el campo «{field}».",
    "bad_field": "El campo «{field}» tiene un valor no válido.",
    "bad_action": "La jugada no está bien escrita (ver FORMATS.md); los detalles están en el campo detail.",
    "too_large": "El mensaje es demasiado grande: el límite es de {limit} bytes.",
    "rate_limited": "Demasiados mensajes: se ignoró este, envía más despacio.",
    "hello_required": "Envía «hello» antes que nada.",
    "already_hello": "Esta conexión ya envió «hello».",
    "bad_token": "Esta clave de asiento no corresponde a ningún asiento de esta mesa.",
    "not_seated": "Los espectadores no pueden hacer eso: primero siéntate.",
    "wrong_seat": "Esa acción es del asiento {seat}, pero tú estás en el asiento {own}.",
    "not_your_turn": "No es tu turno: juega el asiento {to_move}.",
    "stale_state": "La mesa cambió (está en la versión {current}, viste la {seen}): mira de nuevo y vuelve a intentarlo.",
    "illegal_action": "{reason}",
    "not_started": "La partida aún no empezó: espera a que se ocupen todos los asientos.",
    "game_over": "La partida terminó: empieza una revancha para volver a jugar.",
    "game_not_over": "Solo se puede empezar una revancha cuando termina la partida.",
    "deal_not_over": "Esa mano aún no terminó: su registro tiene cartas ocultas.",
    "deal_in_progress": "La mano todavía se está jugando: la siguiente puede empezar cuando termine.",
    "no_hint": "Solo hay pistas para tus propias decisiones durante una mano.",
    "hint_timeout": "La pista tardó demasiado en calcularse: inténtalo de nuevo.",
    "hint_limited": "Demasiadas pistas pedidas desde tu asiento: inténtalo de nuevo en {seconds} s.",
    "review_limited": "Ya se está preparando un análisis para ti o en esta mesa: espera a que termine.",
    "chat_disabled": "El chat libre está desactivado en esta mesa: usa las frases predefinidas.",
    "unknown_phrase": "Frase de chat desconocida «{phrase}».",
    "table_not_found": "No existe esa mesa.",
    "table_full": "Todos los asientos para personas de esta mesa están ocupados: puedes mirar.",
    "seat_taken": "El asiento {seat} ya está ocupado.",
    "not_human_seat": "En el asiento {seat} juega la computadora.",
    "bad_settings": "Ajustes de mesa no válidos (campo «{field}»); los detalles están en el campo detail.",
    "too_many_tables": "Se crearon demasiadas mesas desde tu dirección: inténtalo dentro de un minuto.",
    "too_many_connections": "Demasiadas conexiones a esta mesa o desde tu dirección: cierra algunas y vuelve a intentarlo.",
    "server_busy": "El servidor tiene todas las mesas que puede: inténtalo más tarde.",
    "storage_busy": "El servidor no pudo guardarlo a tiempo (su base de datos está ocupada): inténtalo de nuevo en un momento; la mesa muestra lo que se guardó.",
    "not_found": "No hay nada en esta dirección.",
    "bad_method": "Esta dirección no acepta ese método.",
    "internal_error": "El servidor no pudo completar la solicitud; no se cambió nada. Vuelve a intentarlo.",
    "chat_limited": "Demasiadas líneas de chat desde tu asiento o en esta mesa: la línea no se envió, espera un momento.",
    "table_damaged": "Las partidas guardadas de esta mesa no se pueden leer; el administrador del servidor tiene los detalles.",
    "too_many_requests": "Demasiadas solicitudes desde tu dirección: inténtalo de nuevo dentro de {seconds} s.",
}

RANKS: Mapping[str, str] = {
    "A": "ases", "K": "reyes", "Q": "reinas", "J": "jotas", "10": "dieces", "9": "nueves", "8": "ochos",
    "7": "sietes", "6": "seises", "5": "cincos", "4": "cuatros", "3": "treses negros", "wild": "comodines",
}  # fmt: skip

RANK: Mapping[str, str] = {
    "A": "as", "K": "rey", "Q": "reina", "J": "jota", "10": "diez", "9": "nueve", "8": "ocho", "7": "siete",
    "6": "seis", "5": "cinco", "4": "cuatro", "3": "tres negro", "wild": "comodín",
}  # fmt: skip

METHODS: Mapping[str, str] = {
    "pair": "dos {ranks} naturales",
    "natural_wild": "una carta natural de ese valor y un comodín",
    "layoff": "un juego propio de {ranks} al que añadir la carta de arriba",
    "or": " o ",
}

REFUSALS: Mapping[str, str] = {
    "awaiting_answer": "Primero espera la respuesta de tu compañero.",
    "bad_meld": "Estas cartas no forman un juego válido.",
    "bad_meld.too_few": "Un juego nuevo de {ranks} necesita al menos tres cartas.",
    "bad_meld.too_big": "Un juego puede tener como mucho {n} cartas.",
    "bad_meld.no_wild_melds": "Con estas reglas no hay juegos de solo comodines.",
    "bad_meld.wild_canasta": "Los comodines solos se bajan únicamente como una canasta entera (siete o más) en un turno, y no se les añade nada.",
    "bad_meld.threes": "Los treses negros se bajan solo de tres o cuatro, sin comodines.",
    "bad_meld.naturals": "Un juego de {ranks} necesita al menos {n} cartas naturales.",
    "bad_meld.max_wilds": "Un juego puede tener como mucho {n} comodines.",
    "bad_meld.ratio_le": "Un juego no puede tener más comodines que cartas naturales.",
    "bad_meld.ratio_lt": "Un juego necesita más cartas naturales que comodines.",
    "bad_meld.sevens": "Los sietes no admiten comodines.",
    "bad_meld.aces_opening": "Los comodines van con ases solo en el primer juego de tu equipo.",
    "bad_meld.rule_of_five": "Después del primer juego, los comodines van solo a juegos de cinco o más cartas naturales.",
    "bad_meld.wild_pending": "Mientras tu juego de comodines no esté completo, los comodines van solo a él.",
    "bad_meld.red_three": "Los treses rojos nunca se bajan en juegos: puntúan por sí solos.",
    "bad_pickup": "El pozo no se puede tomar con estas cartas.",
    "bad_pickup.top_only_off": "Estas reglas no permiten comprar solo la carta de arriba.",
    "bad_pickup.one_card": "Un pozo de una carta se toma entero.",
    "bad_pickup.wrong_cards": "Con la carta de arriba {card} solo pueden ir {ranks} o comodines.",
    "bad_pickup.method": "Para tomar el pozo necesitas {how}.",
    "black_threes": "Los treses negros solo se bajan al cerrar con ellos.",
    "cannot_ask": "Ahora no puedes preguntar a tu compañero.",
    "cannot_go_out": "Ahora no puedes cerrar.",
    "cannot_go_out.canastas": "Todavía no puedes cerrar: canastas necesarias, {need}; tu equipo tiene {have}.",
    "cannot_go_out.special": "Un juego de sietes, ases o comodines sin terminar te impide cerrar.",
    "cannot_go_out.partner_no": "Tu compañero dijo que no: no puedes cerrar en este turno.",
    "cannot_go_out.must_ask": "Pregunta a tu compañero antes de cerrar.",
    "cannot_pass": "Solo puedes pasar cuando el mazo está vacío: roba una carta.",
    "card_not_in_hand": "No tienes {card}.",
    "dead_rank": "Ya no se pueden bajar {ranks}: ese valor está muerto.",
    "deal_not_over": "La mano todavía no terminó.",
    "deal_over": "La mano terminó.",
    "discard_restricted": "Ahora no puedes descartar esa carta.",
    "discard_restricted.three": "Los treses nunca se descartan.",
    "discard_restricted.wild": "Un comodín solo se descarta al cerrar o cuando no tienes otra cosa.",
    "discard_restricted.ace_seven": "Sobre un pozo vacío, ases y sietes solo se descartan si no tienes otra carta natural.",
    "discard_restricted.dead": "Sobre un pozo vacío, una carta de valor muerto solo se descarta si no queda otra.",
    "empty_group": "Primero elige las cartas que vas a bajar.",
    "empty_meld": "Primero elige las cartas que vas a bajar.",
    "empty_pile": "El pozo está vacío.",
    "frozen_pile.frozen": "El pozo está congelado: para tomarlo necesitas dos {ranks} naturales de tu mano.",
    "frozen_pile.unopened": "Tu equipo todavía no bajó: para tomar el pozo necesitas dos {ranks} naturales de tu mano.",
    "frozen_pile.always": "El pozo se toma solo con dos {ranks} naturales de tu mano.",
    "game_over": "La partida terminó.",
    "mixed_ranks": "Un juego lleva cartas de un solo valor (y comodines).",
    "must_discard": "Guarda una carta para descartar al final de tu turno.",
    "must_meld_out": "Después de tomar un pozo con un tres negro arriba debes bajar todas las cartas.",
    "must_take_pile": "El mazo está vacío y la carta de arriba sirve para uno de tus juegos: toma el pozo.",
    "no_deal": "Todavía no se repartió ninguna mano.",
    "no_question": "Nadie pidió permiso para cerrar.",
    "not_your_turn": "No es tu turno.",
    "opening_composition": "Tu primer juego necesita tres o más cartas naturales de un valor sin comodines, o un juego de comodines.",
    "opening_minimum": "Tu primer juego suma {count} puntos; necesitas al menos {minimum}.",
    "pile_blocked": "Ahora no se puede tomar el pozo.",
    "pile_blocked.wild_top": "Un comodín arriba bloquea el pozo: ahora no se puede tomar.",
    "pile_blocked.black3_top": "Un tres negro arriba bloquea el pozo: roba del mazo.",
    "pile_blocked.black3_go_out": "Un pozo con un tres negro arriba solo se toma para cerrar enseguida.",
    "pile_blocked.red3_top": "Un tres rojo arriba bloquea el pozo hasta que lo cubran.",
    "pile_blocked.one_card": "Con una sola carta en la mano no puedes tomar un pozo de una carta.",
    "pile_blocked.canasta_rank": "Tu equipo ya tiene una canasta de {ranks}: el pozo no se puede tomar para ellos.",
    "pile_blocked.dead_rank": "Ya no se pueden bajar {ranks}, así que el pozo no se puede tomar para ellos.",
    "stock_empty": "El mazo está vacío.",
    "top_only": "Después de comprar solo la carta de arriba debes bajar todas las cartas (no hay descarte).",
    "wrong_phase.draw": "Primero roba una carta o toma el pozo.",
    "wrong_phase.play": "Ya robaste en este turno.",
}

FALLBACK = "Las reglas no permiten esta jugada."
JOKER = "un comodín"

HINTS: Mapping[str, str] = {
    "draw": "Roba del mazo: ahora no se puede tomar el pozo.",
    "draw_over_pile": "Roba del mazo: ahora no conviene tomar el pozo.",
    "pickup": "Toma el pozo con {cards}: llegan {n} cartas más a tu mano.",
    "pickup_layoff": "Toma el pozo añadiendo su carta de arriba a tu juego: llegan {n} cartas más a tu mano.",
    "lay": "Baja {cards}",
    "add": "Añade {adds}",
    "lay_add": "Baja {cards} y añade {adds}",
    "add_to": "{cards} a tus {ranks}",
    "and": " y ",
    "canasta": "{move}: completa una canasta de {ranks}.",
    "opening": "{move}: el primer juego de tu equipo, {points} puntos.",
    "meld": "{move}: {points} puntos más en la mesa.",
    "discard_black3": "Descarta {card}: un tres negro impide al siguiente jugador tomar el pozo.",
    "discard": "Descarta {card}: de tus cartas, es la que menos necesitas.",
    "ask": "Pregunta a tu compañero: podrías cerrar en este turno.",
    "answer_yes": "Di que sí: tu equipo está listo para cerrar.",
    "answer_no": "Di que no: a tu equipo le conviene seguir jugando.",
    "pass": "Pasa: el mazo está vacío y tomar el pozo no ayuda.",
    "joker": "Comodín",
}

PHRASES: Mapping[str, str] = {
    "hello": "¡Hola!", "good_luck": "¡Suerte!", "well_played": "¡Bien jugado!", "thanks": "¡Gracias!",
    "oops": "¡Uy!", "hurry": "Date prisa, por favor.", "wait": "Un momento, por favor.",
    "good_game": "¡Buena partida!", "rematch": "¿Revancha?", "bye": "¡Chau!",
}  # fmt: skip

DESCRIPTIONS: Mapping[str, str] = {
    "classic": "El juego más conocido: los compañeros se sientan enfrente, bajan juegos de un mismo valor y forman canastas de siete cartas. De 2 a 6 jugadores.",
    "modern-american": "El estilo americano de hoy: 13 cartas cada uno, el pozo siempre congelado, se permiten juegos de comodines y hacen falta dos canastas para cerrar.",
    "online": "Como en la mayoría de los sitios de cartas: una canasta de comodines vale 2000 y un tres negro que quede en tu mano cuesta 100.",
    "mendelev": "Un estilo antiguo: se puede cerrar comprando solo la carta de arriba del pozo, y cuando tu equipo tiene una canasta de un valor, ese valor ya no toma el pozo.",
}
