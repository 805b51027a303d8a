"""What the server adds for the browser client: its pages and static files, the catalogue of
rule sets, a table's rules, and finished deals move by move (in process, no browser)."""

from __future__ import annotations

import random
from pathlib import Path

from canasta.rules import Card, RuleSet, State
from canasta.rules.actions import action_from_json
from canasta.rules.position import position_to_json
from canasta.rules.ruleset import VARIANTS
from server_support import game_over, greet, join, new_table, play_until, running_server


def test_pages_and_static_files_are_served(tmp_path: Path) -> None:
    with running_server(tmp_path) as client:
        for path, script in (("/", "home.js"), ("/t/abc", "table.js"), ("/t/abc/replay", "replay.js")):
            page = client.get(path)
            assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
            assert f'src="/static/js/{script}"' in page.text
            assert "default-src 'self'" in page.headers["content-security-policy"]
        for name in ("table.js", "i18n.js", "cards.js"):
            script = client.get(f"/static/js/{name}")
            assert script.status_code == 200 and "javascript" in script.headers["content-type"]
        assert client.get("/static/canasta.css").headers["content-type"].startswith("text/css")
        assert client.get("/static/../pyproject.toml").status_code == 404


def test_catalogue_offers_only_house_options_a_table_accepts(tmp_path: Path) -> None:
    with running_server(tmp_path) as client:
        catalogue = client.get("/api/rulesets").json()
        assert [v["variant"] for v in catalogue["variants"]] == list(VARIANTS)
        assert catalogue["bot_levels"] == ["random", "easy", "normal", "hard", "search"]
        assert catalogue["target_scores"] == [2500, 5000, 7500, 10000]
        for info in catalogue["variants"]:
            assert info["description"]["en"] and info["description"]["ru"] != info["description"]["en"]
            for players in info["players"]:
                preset = info["by_players"][str(players)]
                assert preset["target_score"] == RuleSet.preset(info["variant"], players).target_score
                keys = [o["key"] for o in preset["options"]]
                options = {o["key"]: o["values"] for o in preset["options"]}
                teams = options.get("teams", [preset["teams"]])
                assert list(preset["by_teams"]) == [str(n) for n in teams]
                for n in teams:
                    rules = RuleSet.preset(info["variant"], players, {"teams": n})
                    assert preset["by_teams"][str(n)] == {
                        "target_score": rules.target_score,
                        "seat_teams": [rules.team_of(seat) for seat in range(players)],
                    }
                if not RuleSet.preset(info["variant"], players).partnership:
                    assert "permission_mode" not in keys
                for option in preset["options"]:
                    assert option["values"][0] == option["default"]
                    for value in option["values"][1:]:
                        body = {
                            "variant": info["variant"],
                            "players": players,
                            "options": {option["key"]: value},
                        }
                        created = client.post("/api/tables", json=body)
                        assert created.status_code == 201, (body, created.text)
        with_teams = [
            (info["variant"], players)
            for info in catalogue["variants"]
            for players, preset in info["by_players"].items()
            if any(o["key"] == "teams" for o in preset["options"])
        ]
        assert with_teams == [("classic", "6")]  # 2 teams of 3 or 3 teams of 2
        six = catalogue["variants"][0]["by_players"]["6"]
        assert {"key": "teams", "default": 2, "values": [2, 3]} in six["options"]


def test_a_tables_rules_name_every_field(tmp_path: Path) -> None:
    with running_server(tmp_path) as client:
        table = new_table(client, variant="online", players=2, target_score=2500)
        rules = client.get(f"/api/tables/{table}/rules").json()
        expected = RuleSet.preset("online", 2, {"target_score": 2500})
        assert rules["target_score"] == 2500 and rules["go_out_min_canastas"] == expected.go_out_min_canastas
        assert rules["block_rules"] == sorted(expected.block_rules) and rules["partnership"] is False
        assert rules["initial_meld_table"] == [list(row) for row in expected.initial_meld_table]
        assert client.get("/api/tables/AAAAAAAAAAAAAAAAAAAAAA/rules").status_code == 404


def test_replay_of_finished_deals_only(tmp_path: Path) -> None:
    with running_server(tmp_path, rate=1e6, burst=1000) as client:
        table = new_table(client, seats=["human", "random", "random", "random"], target_score=300)
        token = join(client, table, "Ann")
        early = client.get(f"/api/tables/{table}/replay", params={"lang": "ru"})
        assert early.status_code == 409 and early.json()["error"]["code"] == "deal_not_over"
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            play_until(ws, 0, greet(ws, token), game_over, random.Random(3))
        live = client.get(f"/api/tables/{table}/record").json()
        deals = len(live["deals"])
        last = client.get(f"/api/tables/{table}/replay").json()
        assert last["deal"] == deals - 1 and last["deals"] == deals and last["games"] == 1
        assert last["names"] == ["Ann", None, None, None]
        first = client.get(f"/api/tables/{table}/replay", params={"game": 0, "deal": 0}).json()
        record = live["deals"][0]
        assert len(first["steps"]) == len(record["actions"]) + 1
        # each step is the position after that action, replayed independently here
        rules = RuleSet.preset("classic", 4, {"target_score": 300})
        state = State.deal(rules, [Card.parse(c) for c in record["deck"]], record["dealer"])
        assert first["steps"][0]["position"] == position_to_json(state)
        for step, action in zip(first["steps"][1:], record["actions"], strict=True):
            move, seat = action_from_json(action)
            state.apply(move, seat)
            assert step["seat"] == seat and step["position"] == position_to_json(state)
        assert first["result"]["scores"] == [s.to_json() for s in state.result.scores]  # type: ignore[union-attr]
        assert sum(len(h) for h in first["steps"][0]["position"]["hands"]) == 44
        bad = client.get(f"/api/tables/{table}/replay", params={"game": 1})
        assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad_field"
        assert client.get(f"/api/tables/{table}/replay", params={"deal": deals}).status_code == 409
