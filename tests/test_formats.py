from pathlib import Path

import pytest

from nqueens_cp import Problem
from nqueens_cp.io.formats import ModelFileError, read_model, write_param, write_toml

MODELS = Path(__file__).resolve().parents[1] / "models"


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_toml_round_trip(tmp_path):
    p = Problem(9, "rook", blocked=[(0, 1), (4, 4)], fixed=[(2, 3)])
    assert read_model(write(tmp_path, "a.toml", write_toml(p, "demo"))) == p


def test_param_is_one_based_and_round_trips(tmp_path):
    path = write(tmp_path, "x.param", "letting n =  5\nletting blocks =  [[1, 1], [5, 2]]\n")
    assert read_model(path) == Problem(5, blocked=[(0, 0), (4, 1)])
    p = Problem(6, blocked=[(0, 5), (3, 3)])
    assert read_model(write(tmp_path, "y.param", write_param(p))) == p


def test_asp_facts_are_one_based(tmp_path):
    text = "% comment\nnum(1). num(2). num(3).\nnum(4).\nblock(1,1). block(4, 2).\n"
    assert read_model(write(tmp_path, "a.lp", text)) == Problem(4, blocked=[(0, 0), (3, 1)])
    assert read_model(write(tmp_path, "b.lp", "num(1..6).\n")) == Problem(6)


def test_text_board(tmp_path):
    text = "# demo\n. X . .\n. . . Q\n. . . .\nX . . .\n"
    assert read_model(write(tmp_path, "b.txt", text)) == Problem(4, blocked=[(0, 1), (3, 0)], fixed=[(1, 3)])


@pytest.mark.parametrize(
    "name,text,message",
    [
        ("a.toml", "n = 8\nblocked = [[1, 2]\n", "a.toml:2: not valid TOML"),
        ("a.toml", "n = 8\npiece = queen\nfixed = []\n", "a.toml:2: not valid TOML"),
        ("a.toml", "n = 8\nsize = 3\n", "a.toml:2: unknown key 'size'"),
        ("a.toml", "piece = 'queen'\n", "missing the board size"),
        ("a.toml", "n = 8\n\nblocked = [[9, 1]]\n", "a.toml:3: blocked square (9, 1) is off the 8x8 board"),
        ("a.toml", "n = 0\n", "a.toml:1: board size 0"),
        ("a.param", "letting n = 4\nletting blocks = [[0, 1]]\n", "a.param:2: blocks entry [0, 1] is off"),
        ("a.param", "letting n = 4\nletting blocks = [\n[1, 1],\n[5, 2]]\n", "a.param:4: blocks entry [5, 2]"),
        ("a.param", "letting n = 4\nletting blocks = [[1, True]]\n", "a.param:2: blocks entry [1, True] is not"),
        ("a.param", "letting n = 4\nletting n = 5\n", "a.param:2: n is given twice (first on line 1)"),
        ("a.param", "letting n = True\n", "a.param:1: the board size must be an integer"),
        ("a.toml", "n = 8\nblocked = 5\n", "a.toml:2: blocked must be a list"),
        ("a.toml", "n = 8\nfixed = 5\n", "a.toml:2: fixed must be a list"),
        ("a.toml", "n = 8\nblocked = true\n", "a.toml:2: blocked must be a list"),
        ("a.toml", "n = 8\nblocked = [[1, true]]\n", "a.toml:2: blocked entry [1, True] is not"),
        ("a.toml", 'n = 8\npiece = ["queen"]\n', "a.toml:2: piece must be a string"),
        ("a.toml", "n = 8\ntorus = 1\n", "a.toml:2: torus must be true or false"),
        ("a.toml", "n = 8.5\n", "a.toml:1: the board size must be an integer"),
        ("a.lp", "num(1..100000000000).\n", "a.lp:1: board size 100000000000 is out of range"),
        ("a.lp", "num(1..4).\n\nblock(5, 1).\n", "a.lp:3: block entry [5, 1] is off the 4x4 board"),
        ("a.param", "letting n = 4\nletting blocks = [[1, 2\n", "a.param:2: cannot read the value of blocks"),
        ("a.param", "letting n = 4\nletting rows = 3\n", "a.param:2: unknown parameter 'rows'"),
        ("a.param", "n = 4\n", "no `letting"),
        ("a.lp", "num(1..4).\nqueen(1,2).\n", "a.lp:2: unknown fact queen/2"),
        ("a.lp", "num(1..4).\nblock(0,2).\n", "a.lp:2: block entry [0, 2] is off the 4x4 board"),
        ("a.lp", "num(1..4).\nblock(x,2).\n", "a.lp:2: bad arguments"),
        ("a.lp", "num(1). num(3).\n", "must cover 1..3"),
        ("a.txt", ". .\n. . .\n", "a.txt:2: row 1 has 3 squares"),
        ("a.txt", "..\n.?\n", "a.txt:2: unexpected '?'"),
        ("a.csv", "n=1", "unknown model file type"),
    ],
)
def test_malformed_files_name_file_and_line(tmp_path, name, text, message):
    with pytest.raises(ModelFileError) as err:
        read_model(write(tmp_path, name, text))
    assert message in str(err.value)


def test_missing_file():
    with pytest.raises(ModelFileError, match="cannot read"):
        read_model("/no/such/file.toml")


def test_shipped_models_all_read():
    files = sorted(MODELS.iterdir())
    assert {f.suffix for f in files} >= {".toml", ".param", ".lp", ".txt"}
    for f in files:
        assert isinstance(read_model(f), Problem)


def test_byte_order_mark_and_tabs_are_not_squares(tmp_path):
    """Files saved by Windows editors start with a BOM; a text board may use tabs between squares."""
    bom = "\ufeff"
    assert read_model(write(tmp_path, "a.txt", bom + ".\tX\n.\t.\n")) == Problem(2, blocked=[(0, 1)])
    assert read_model(write(tmp_path, "a.toml", bom + "n = 5\n")) == Problem(5)
    assert read_model(write(tmp_path, "a.param", bom + "letting n = 5\n")) == Problem(5)


def test_a_file_too_large_is_refused_before_it_is_read(tmp_path, monkeypatch):
    import nqueens_cp.io.formats as formats

    monkeypatch.setattr(formats, "MAX_MODEL_BYTES", 10)
    with pytest.raises(ModelFileError, match="longer than the 10 bytes such a file may have"):
        read_model(write(tmp_path, "a.toml", "n = 8\n# a comment\n"))


def test_an_integer_too_large_to_read_is_one_error(tmp_path):
    """tomllib's int() raised ValueError past 4300 digits: a traceback."""
    model = tmp_path / "big.toml"
    model.write_text("n = " + "9" * 5000 + "\n")
    with pytest.raises(ModelFileError, match="too large"):
        read_model(model)


def test_a_board_file_whose_pieces_attack_reads_as_a_puzzle_with_no_solution(tmp_path):
    p = read_model(write(tmp_path, "a.txt", "Q.\n.Q\n"))
    assert p.fixed == ((0, 0), (1, 1)) and "attack each other" in p.contradiction


@pytest.mark.parametrize(
    "text",
    [
        "n = 8\nx = " + "[" * 5000 + "]" * 5000,
        "n = 8\nx = " + "{a = " * 3000 + "1" + "}" * 3000,
        "[piece]\nriders = " + "[" * 5000 + "]" * 5000,
    ],
)
def test_a_model_nested_too_deeply_is_one_error(tmp_path, text):
    """5,000 nested arrays gave a 3,000-line RecursionError traceback."""
    path = tmp_path / "deep.toml"
    path.write_text(text)
    with pytest.raises(ModelFileError, match="nested too deeply"):
        read_model(path)
