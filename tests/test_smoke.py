from support import act, illegal, make_state


def test_c01_like_meld():
    s = make_state(
        hands=[["KS", "KH", "2C", "9D", "5S"], [], [], []],
        melds=[[["QS", "QH", "QD"]], []],
        drew="stock",
    )
    illegal(s, {"type": "meld", "melds": [["KS", "2C", "2D"]]})
    act(s, {"type": "meld", "melds": [["KS", "KH", "2C"]]})
    assert len(s.melds[0]) == 2
