"""Every text the server sends, in Portuguese as spoken in Brazil, keyed as the English ones
are: wire errors (by code), the sentences of refused moves (`refusal_texts`), hint reasons,
chat phrases and the rule sets' descriptions."""

# ruff: noqa: E501  (sentences read better unbroken)
from __future__ import annotations

from collections.abc import Mapping

ERRORS: Mapping[str, str] = {
    "bad_json": "A mensagem não é um JSON válido.",
    "bad_message": "Uma mensagem deve ser um único objeto JSON com o campo “type”.",
    "unknown_type": "Tipo de mensagem desconhecido “{type}”.",
    "missing_field": "Falta o campo “{field}” na mensagem.",
    "bad_field": "O campo “{field}” tem um valor inválido.",
    "bad_action": "A jogada não está escrita corretamente (veja FORMATS.md); os detalhes estão no campo detail.",
    "too_large": "A mensagem é grande demais: o limite é de {limit} bytes.",
    "rate_limited": "Mensagens demais: esta foi ignorada, envie mais devagar.",
    "hello_required": "Envie “hello” antes de tudo.",
    "already_hello": "Esta conexão já enviou “hello”.",
    "bad_token": "Esta chave de lugar não pertence a nenhum lugar desta mesa.",
    "not_seated": "Espectadores não podem fazer isso: sente-se primeiro.",
    "wrong_seat": "Essa ação é do lugar {seat}, mas você está no lugar {own}.",
    "not_your_turn": "Não é a sua vez: joga o lugar {to_move}.",
    "stale_state": "A mesa mudou (está na versão {current}, você viu a {seen}): olhe de novo e tente outra vez.",
    "illegal_action": "{reason}",
    "not_started": "A partida ainda não começou: espera todos os lugares serem ocupados.",
    "game_over": "A partida acabou: comece uma revanche para jogar de novo.",
    "game_not_over": "A revanche só pode começar quando a partida acabar.",
    "deal_not_over": "Essa mão ainda não acabou: o registro dela tem cartas escondidas.",
    "deal_in_progress": "A mão ainda está sendo jogada: a próxima pode começar quando ela acabar.",
    "no_hint": "Dicas só existem para as suas próprias decisões durante uma mão.",
    "hint_timeout": "A dica demorou demais para ser calculada: tente de novo.",
    "chat_disabled": "O bate-papo livre está desligado nesta mesa: use as frases prontas.",
    "unknown_phrase": "Frase de bate-papo desconhecida “{phrase}”.",
    "table_not_found": "Essa mesa não existe.",
    "table_full": "Todos os lugares para pessoas nesta mesa estão ocupados: você pode assistir.",
    "seat_taken": "O lugar {seat} já está ocupado.",
    "not_human_seat": "No lugar {seat} joga o computador.",
    "bad_settings": "Configuração de mesa inválida (campo “{field}”); os detalhes estão no campo detail.",
    "too_many_tables": "Mesas demais criadas a partir do seu endereço: tente daqui a um minuto.",
    "too_many_connections": "Conexões demais com esta mesa ou a partir do seu endereço: feche algumas e tente de novo.",
    "server_busy": "O servidor já tem todas as mesas que consegue: tente mais tarde.",
    "not_found": "Não há nada neste endereço.",
    "bad_method": "Este endereço não aceita esse método.",
    "internal_error": "O servidor não conseguiu concluir o pedido; nada foi alterado. Tente de novo.",
    "chat_limited": "Muitas linhas de chat do seu lugar ou nesta mesa: a linha não foi enviada, espere um pouco.",
    "table_damaged": "As partidas salvas desta mesa não podem ser lidas; o administrador do servidor tem os detalhes.",
    "too_many_requests": "Muitas solicitações do seu endereço: tente de novo em {seconds} s.",
}

RANKS: Mapping[str, str] = {
    "A": "ases", "K": "reis", "Q": "damas", "J": "valetes", "10": "dezes", "9": "noves", "8": "oitos",
    "7": "setes", "6": "seis", "5": "cincos", "4": "quatros", "3": "três pretos", "wild": "curingas",
}  # fmt: skip

RANK: Mapping[str, str] = {
    "A": "ás", "K": "rei", "Q": "dama", "J": "valete", "10": "dez", "9": "nove", "8": "oito", "7": "sete",
    "6": "seis", "5": "cinco", "4": "quatro", "3": "três preto", "wild": "curinga",
}  # fmt: skip

METHODS: Mapping[str, str] = {
    "pair": "um par natural de {ranks}",
    "natural_wild": "uma carta natural desse valor e um curinga",
    "layoff": "um jogo seu de {ranks} onde juntar a carta de cima",
    "or": " ou ",
}

REFUSALS: Mapping[str, str] = {
    "awaiting_answer": "Espere primeiro a resposta do seu parceiro.",
    "bad_meld": "Estas cartas não formam um jogo válido.",
    "bad_meld.too_few": "Um jogo novo de {ranks} precisa de pelo menos três cartas.",
    "bad_meld.too_big": "Um jogo pode ter no máximo {n} cartas.",
    "bad_meld.no_wild_melds": "Nestas regras não há jogos só de curingas.",
    "bad_meld.wild_canasta": "Curingas sozinhos só se baixam como uma canastra inteira (sete ou mais) numa só vez, e nada se junta a ela.",
    "bad_meld.threes": "Três pretos só se baixam em três ou quatro, sem curinga.",
    "bad_meld.naturals": "Um jogo de {ranks} precisa de pelo menos {n} cartas naturais.",
    "bad_meld.max_wilds": "Um jogo pode ter no máximo {n} curingas.",
    "bad_meld.ratio_le": "Um jogo não pode ter mais curingas do que cartas naturais.",
    "bad_meld.ratio_lt": "Um jogo precisa de mais cartas naturais do que curingas.",
    "bad_meld.sevens": "Os setes não aceitam curingas.",
    "bad_meld.aces_opening": "Curingas vão com ases só no primeiro jogo da sua dupla.",
    "bad_meld.rule_of_five": "Depois do primeiro jogo, curingas só vão para jogos com cinco ou mais cartas naturais.",
    "bad_meld.wild_pending": "Enquanto o seu jogo de curingas não estiver completo, curingas só vão para ele.",
    "bad_meld.red_three": "Três vermelhos nunca entram em jogos: valem pontos sozinhos.",
    "bad_pickup": "O lixo não pode ser pego com estas cartas.",
    "bad_pickup.top_only_off": "Estas regras não deixam comprar só a carta de cima.",
    "bad_pickup.one_card": "Um lixo de uma carta é pego inteiro.",
    "bad_pickup.wrong_cards": "Com a carta de cima {card} só podem ir {ranks} ou curingas.",
    "bad_pickup.method": "Para pegar o lixo você precisa de {how}.",
    "black_threes": "Três pretos só se baixam quando você bate com eles.",
    "cannot_ask": "Agora você não pode perguntar ao parceiro.",
    "cannot_go_out": "Agora você não pode bater.",
    "cannot_go_out.canastas": "Você ainda não pode bater: canastras necessárias, {need}; sua dupla tem {have}.",
    "cannot_go_out.special": "Um jogo de setes, ases ou curingas por terminar impede você de bater.",
    "cannot_go_out.partner_no": "Seu parceiro disse não: você não pode bater nesta vez.",
    "cannot_go_out.must_ask": "Pergunte ao parceiro antes de bater.",
    "cannot_pass": "Você só pode passar quando o monte está vazio: compre uma carta.",
    "card_not_in_hand": "Você não tem {card}.",
    "dead_rank": "Não se pode mais baixar {ranks}: esse valor está morto.",
    "deal_not_over": "A mão ainda não acabou.",
    "deal_over": "A mão acabou.",
    "discard_restricted": "Agora você não pode descartar essa carta.",
    "discard_restricted.three": "Três nunca se descartam.",
    "discard_restricted.wild": "Um curinga só pode ser descartado ao bater ou quando você não tem outra carta.",
    "discard_restricted.ace_seven": "Sobre um lixo vazio, ases e setes só vão quando você não tem outra carta natural.",
    "discard_restricted.dead": "Sobre um lixo vazio, uma carta de valor morto só vai quando nada mais pode ir.",
    "empty_group": "Escolha primeiro as cartas para baixar.",
    "empty_meld": "Escolha primeiro as cartas para baixar.",
    "empty_pile": "O lixo está vazio.",
    "frozen_pile.frozen": "O lixo está congelado: para pegá-lo você precisa de um par natural de {ranks} da sua mão.",
    "frozen_pile.unopened": "Sua dupla ainda não baixou: para pegar o lixo você precisa de um par natural de {ranks} da sua mão.",
    "frozen_pile.always": "O lixo só se pega com um par natural de {ranks} da sua mão.",
    "game_over": "A partida acabou.",
    "mixed_ranks": "Um jogo tem cartas de um só valor (e curingas).",
    "must_discard": "Guarde uma carta para descartar no fim da sua vez.",
    "must_meld_out": "Depois de pegar um lixo com um três preto em cima você precisa baixar todas as cartas.",
    "must_take_pile": "O monte está vazio e a carta de cima serve num dos seus jogos: pegue o lixo.",
    "no_deal": "Nenhuma mão foi dada ainda.",
    "no_question": "Ninguém pediu licença para bater.",
    "not_your_turn": "Não é a sua vez.",
    "opening_composition": "Seu primeiro jogo precisa de três ou mais cartas naturais de um valor sem curingas, ou de um jogo de curingas.",
    "opening_minimum": "Seu primeiro jogo soma {count} pontos; você precisa de pelo menos {minimum}.",
    "pile_blocked": "Agora o lixo não pode ser pego.",
    "pile_blocked.wild_top": "Um curinga em cima trava o lixo: agora não dá para pegá-lo.",
    "pile_blocked.black3_top": "Um três preto em cima trava o lixo: compre do monte.",
    "pile_blocked.black3_go_out": "Um lixo com um três preto em cima só pode ser pego para bater na hora.",
    "pile_blocked.red3_top": "Um três vermelho em cima trava o lixo até ser coberto.",
    "pile_blocked.one_card": "Com uma carta só na mão você não pode pegar um lixo de uma carta.",
    "pile_blocked.canasta_rank": "Sua dupla já tem uma canastra de {ranks}: o lixo não pode ser pego para eles.",
    "pile_blocked.dead_rank": "Não se pode mais baixar {ranks}, então o lixo não pode ser pego para eles.",
    "stock_empty": "O monte está vazio.",
    "top_only": "Depois de comprar só a carta de cima você precisa baixar todas as cartas (sem descarte).",
    "wrong_phase.draw": "Compre uma carta ou pegue o lixo primeiro.",
    "wrong_phase.play": "Você já comprou nesta vez.",
}

FALLBACK = "As regras não permitem esta jogada."
JOKER = "um curinga"

HINTS: Mapping[str, str] = {
    "draw": "Compre do monte: agora o lixo não pode ser pego.",
    "draw_over_pile": "Compre do monte: agora não vale a pena pegar o lixo.",
    "pickup": "Pegue o lixo com {cards}: chegam mais {n} cartas à sua mão.",
    "pickup_layoff": "Pegue o lixo juntando a carta de cima ao seu jogo: chegam mais {n} cartas à sua mão.",
    "lay": "Baixe {cards}",
    "add": "Junte {adds}",
    "lay_add": "Baixe {cards} e junte {adds}",
    "add_to": "{cards} aos seus {ranks}",
    "and": " e ",
    "canasta": "{move}: completa uma canastra de {ranks}.",
    "opening": "{move}: o primeiro jogo da sua dupla, {points} pontos.",
    "meld": "{move}: mais {points} pontos na mesa.",
    "discard_black3": "Descarte {card}: um três preto impede o próximo jogador de pegar o lixo.",
    "discard": "Descarte {card}: das suas cartas, é a que você menos precisa.",
    "ask": "Pergunte ao parceiro: você poderia bater nesta vez.",
    "answer_yes": "Diga sim: sua dupla está pronta para bater.",
    "answer_no": "Diga não: é melhor sua dupla continuar jogando.",
    "pass": "Passe: o monte está vazio e pegar o lixo não ajuda.",
    "joker": "Curinga",
}

PHRASES: Mapping[str, str] = {
    "hello": "Olá!", "good_luck": "Boa sorte!", "well_played": "Boa jogada!", "thanks": "Obrigado!",
    "oops": "Opa!", "hurry": "Mais rápido, por favor.", "wait": "Um momento, por favor.",
    "good_game": "Bom jogo!", "rematch": "Revanche?", "bye": "Tchau!",
}  # fmt: skip

DESCRIPTIONS: Mapping[str, str] = {
    "classic": "O jogo mais conhecido: os parceiros sentam frente a frente, baixam jogos de um mesmo valor e formam canastras de sete cartas. De 2 a 6 jogadores.",
    "modern-american": "O estilo americano de hoje: 13 cartas para cada um, o lixo sempre congelado, jogos de curingas permitidos e duas canastras para bater.",
    "online": "Como na maioria dos sites de cartas: uma canastra de curingas vale 2000 e um três preto que fica na mão custa 100.",
    "mendelev": "Um estilo antigo: dá para bater comprando só a carta de cima do lixo, e quando sua dupla tem uma canastra de um valor, esse valor não pega mais o lixo.",
}
