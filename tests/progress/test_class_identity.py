"""Whose work a submission is (issue 22): a file belongs to the account that owns it, whatever name it
gives, and its grading time is that account's. Files are given to real accounts of this host with
os.chown, as the inbox's owners would be, so the tests need root and are skipped without it."""

from __future__ import annotations

import itertools
import json
import os
import pwd
from pathlib import Path

import pytest

from tests.built_in import builtin_book
from tests.progress.test_class_report import export_of, run
from tui.cli.classroom import findings
from tui.progress.class_report import build_report

pytestmark = pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0,
                                reason="giving a file to another account (os.chown) needs root")


@pytest.fixture
def accounts() -> list[pwd.struct_passwd]:
    """Three accounts of this host other than the one running the tests: alice, mallory and a third."""
    others = {e.pw_uid: e for e in pwd.getpwall() if e.pw_uid != os.geteuid()}
    if len(others) < 3:
        pytest.skip("this host has fewer than three other accounts to give files to")
    return [others[uid] for uid in sorted(others)[:3]]


def submitted(capsys, tmp_path: Path, folder: Path, file_name: str, account: pwd.struct_passwd, name: str,
              rows: list[tuple[str, str, str, int]]) -> dict:
    """What `ringbook progress submit --name NAME` leaves in the inbox when `account` runs it: an export
    naming `name` and the account's login, owned by that account."""
    data = export_of(capsys, tmp_path, f"{account.pw_name}-{file_name}", rows, tmp_path / "made.json")
    data["student"].update(name=name, user=account.pw_name)
    target = folder / file_name
    target.write_text(json.dumps(data))
    os.chown(target, account.pw_uid, account.pw_gid)
    return data


def test_a_classmates_name_from_another_account_is_reported_apart_with_both_accounts(tmp_path, capsys, accounts):
    """Found: mallory's `progress submit --name alice` was merged into alice's row (her wrong 12 on 0.3
    counted as alice's), and a forged "correct" attempt in it made the report call alice a tamperer."""
    alice, mallory, _ = accounts
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    submitted(capsys, tmp_path, inbox, "alice-1.json", alice, alice.pw_name, [("0.1", "1.75", "correct", 0)])
    forged = submitted(capsys, tmp_path, inbox, "alice-2.json", mallory, alice.pw_name,
                       [("0.3", "12", "incorrect", 0), ("0.2", "3", "incorrect", 0)])
    forged["attempts"][1]["status"] = "correct"   # a wrong answer recorded as right
    (inbox / "alice-2.json").write_text(json.dumps(forged))

    code, out, err = run(capsys, "class", "report", inbox, "--format", "json")
    assert code == 1
    rows = {s["account"]: s for s in json.loads(out)["students"]}
    assert sorted(rows) == sorted([alice.pw_name, mallory.pw_name])
    hers, his = rows[alice.pw_name], rows[mallory.pw_name]
    assert hers["name"] == his["name"] == alice.pw_name
    assert (hers["solved"], hers["attempts"], hers["verification"]["tampered"]) == (1, 1, [])
    assert hers["verification"]["name_shared_with"] == [mallory.pw_name]
    assert [t["exercise_id"] for t in his["verification"]["tampered"]] == ["0.2"]
    assert his["verification"]["name_claims"] == [
        {"file": str(inbox / "alice-2.json"), "name": alice.pw_name, "account": alice.pw_name,
         "reads_as": alice.pw_name, "owner": mallory.pw_name}]
    [failed] = json.loads(out)["most_failed"]
    assert (failed["id"], failed["students"]) == ("0.3", 1)

    both = ", ".join(sorted([alice.pw_name, mallory.pw_name]))
    assert sorted(err.splitlines()) == sorted([
        f"ringbook class report: {alice.pw_name} ({alice.pw_name}): files under the name {alice.pw_name!r} come "
        f"from 2 accounts: {both}; each account's are reported apart",
        f"ringbook class report: {alice.pw_name} ({mallory.pw_name}): 1 attempt recorded with a result the book "
        "does not give (edited, or made with another version of the book; on 0.2); not counted",
        f"ringbook class report: {alice.pw_name} ({mallory.pw_name}): alice-2.json names student "
        f"{alice.pw_name!r}, the name of account {alice.pw_name}, but belongs to {mallory.pw_name}; its work is "
        f"counted as {mallory.pw_name}'s",
        f"ringbook class report: {alice.pw_name} ({mallory.pw_name}): files under the name {alice.pw_name!r} come "
        f"from 2 accounts: {both}; each account's are reported apart"])

    table = run(capsys, "class", "report", inbox)[1].splitlines()
    total = len(builtin_book().exercises)
    assert table[2].split()[:3] == ["Student", "Solved", "%"]
    assert sorted(line.split()[:3] for line in table[3:5]) == sorted([
        [alice.pw_name, f"({alice.pw_name})", f"1/{total}"], [alice.pw_name, f"({mallory.pw_name})", f"0/{total}"]])


def test_a_roster_names_each_file_by_its_owner_and_flags_claims_on_anothers_name(tmp_path, capsys, accounts):
    alice, mallory, stranger = accounts
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    submitted(capsys, tmp_path, inbox, "a.json", alice, "Ali", [("0.1", "1.75", "correct", 0)])
    submitted(capsys, tmp_path, inbox, "m.json", mallory, "Alice Liddell", [("0.3", "12", "incorrect", 0)])
    submitted(capsys, tmp_path, inbox, "s.json", stranger, "Sam", [])
    roster = tmp_path / "roster.txt"
    roster.write_text(f"# login  name\n{alice.pw_name}  Alice Liddell\n{mallory.pw_name}\tMallory M  # late\n\n")

    code, out, err = run(capsys, "class", "report", inbox, "--roster", roster, "--format", "json")
    assert code == 1
    rows = {s["name"]: s for s in json.loads(out)["students"]}
    assert sorted(rows) == ["Alice Liddell", "Mallory M", "Sam"]
    assert (rows["Alice Liddell"]["account"], rows["Alice Liddell"]["solved"]) == (alice.pw_name, 1)
    assert rows["Alice Liddell"]["verification"]["name_claims"] == []
    assert rows["Mallory M"]["verification"]["name_claims"] == [
        {"file": str(inbox / "m.json"), "name": "Alice Liddell", "account": alice.pw_name, "reads_as": "Alice Liddell",
         "owner": mallory.pw_name}]
    assert rows["Sam"]["verification"]["off_roster"] is True
    assert err.splitlines() == [
        f"ringbook class report: Mallory M: m.json names student 'Alice Liddell', the name of account "
        f"{alice.pw_name} on the roster, but belongs to {mallory.pw_name}; its work is counted as "
        f"{mallory.pw_name}'s",
        f"ringbook class report: Sam: these files belong to {stranger.pw_name}, who is not on the roster"]

    roster.write_text(f"{alice.pw_name} Alice\n{mallory.pw_name} alice\n")   # one name for two accounts
    code, out, err = run(capsys, "class", "report", inbox, "--roster", roster)
    assert (code, out) == (2, "")
    assert err == (f"ringbook class report: {roster}:2: 'alice' already names {alice.pw_name!r}; each name may "
                   "belong to one account; no report made.\n")


def counting_clock(step: float = 1.0):
    """A clock that moves `step` seconds each time it is read: grading any answer costs `step` seconds."""
    ticks = itertools.count()
    return lambda: next(ticks) * step


def test_grading_time_is_charged_to_the_account_that_owns_the_file(tmp_path, capsys, accounts):
    """Found: `aaa.json` in alice's name, with 90 right answers to 0.7 that are slow to prove, spent her
    60 s (files were graded in path order, per declared name) and her own answer on 0.1 was dropped.
    Grading here costs one second an answer, by the clock the report is given."""
    alice, mallory, _ = accounts
    book = builtin_book()
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    slow = [("0.7", f"2M(N-1)/N + {i} - {i}", "correct", 0) for i in range(30)]
    submitted(capsys, tmp_path, inbox, "aaa.json", mallory, alice.pw_name, slow)
    submitted(capsys, tmp_path, inbox, "zzz.json", alice, alice.pw_name, [("0.1", "1.75", "correct", 0)])

    report = build_report(book, [inbox], grading_seconds=20, grading_clock=counting_clock())
    rows = {s.account: s for s in report.students}
    hers, his = rows[alice.pw_name].verification, rows[mallory.pw_name].verification
    assert (hers.confirmed, hers.not_regraded) == (1, 0)
    assert (his.confirmed, his.not_regraded) == (20, 10)
    assert [finding for finding in findings(report, rows[mallory.pw_name]) if "graded again" in finding] == [
        f"10 attempts in aaa.json could not be graded again within the 20 seconds of grading charged to "
        f"account {mallory.pw_name}; not counted"]

    # The whole report is bounded too: two accounts share 12 seconds, 6 each, fixed before grading begins.
    report = build_report(book, [inbox], grading_seconds=20, grading_seconds_in_all=12,
                          grading_clock=counting_clock())
    rows = {s.account: s.verification for s in report.students}
    assert (rows[alice.pw_name].confirmed, rows[mallory.pw_name].confirmed) == (1, 6)
    assert rows[mallory.pw_name].grading_seconds == 6


def test_invented_names_from_one_account_share_its_grading_time(tmp_path, capsys, accounts):
    """Each invented name got its own 60 s; now every file of one account draws on that account's time."""
    _, mallory, _ = accounts
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    for n in range(3):
        submitted(capsys, tmp_path, inbox, f"name{n}.json", mallory, f"name{n}",
                  [("0.7", f"2M(N-1)/N + {n}{i} - {n}{i}", "correct", 0) for i in range(4)])
    report = build_report(builtin_book(), [inbox], grading_seconds=6, grading_clock=counting_clock())
    assert [(s.name, s.verification.confirmed, s.verification.not_regraded) for s in report.students] == [
        ("name0", 4, 0), ("name1", 2, 2), ("name2", 0, 4)]
    assert {s.verification.charged_to for s in report.students} == {f"account {mallory.pw_name}"}


def test_one_accounts_files_cannot_hold_the_report_however_many_it_drops(tmp_path, capsys, accounts):
    """Found (my own attack on the inbox): a 32 MB export of 120,000 one-line attempts took 19 s to read,
    before any grading budget applied, and an account may drop as many as it likes: thirty of them held
    the report for ten minutes. Reading is now charged to the owning account by bytes, newest files first;
    the rest are named and not read."""
    alice, mallory, _ = accounts
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    for number in range(3):
        submitted(capsys, tmp_path, inbox, f"m{number}.json", mallory, mallory.pw_name,
                  [("0.1", "1.75", "correct", number)])
        os.utime(inbox / f"m{number}.json", (1_800_000_000 + number, 1_800_000_000 + number))
    submitted(capsys, tmp_path, inbox, "a.json", alice, alice.pw_name, [("0.1", "1.75", "correct", 0)])
    largest = max(path.stat().st_size for path in inbox.iterdir())
    report = build_report(builtin_book(), [inbox], read_bytes_per_account=2 * largest)
    rows = {s.account: s for s in report.students}
    assert [Path(f).name for f in rows[mallory.pw_name].files] == ["m1.json", "m2.json"]   # the newest two
    assert [Path(f).name for f in rows[alice.pw_name].files] == ["a.json"]
    assert report.skipped == [f"{inbox / 'm0.json'}: not read: the files of {mallory.pw_name} come to more than "
                              f"{2 * largest / 2**20:g} MB in all; their newest were read"]


CYRILLIC_TWINS = str.maketrans("aeopcxy", "\u0430\u0435\u043e\u0440\u0441\u0445\u0443")


def with_a_cyrillic_letter(name: str) -> str:
    """`name` with its first letter that has a Cyrillic twin (a, e, o, p, c, x, y) swapped for it."""
    for number, letter in enumerate(name):
        twin = letter.translate(CYRILLIC_TWINS)
        if twin != letter:
            return name[:number] + twin + name[number + 1:]
    return name


LOOKALIKES = {
    "a zero-width space after it": lambda login: login + "\u200b",
    "a soft hyphen inside": lambda login: login[:1] + "\u00ad" + login[1:],
    "a Cyrillic letter": with_a_cyrillic_letter,
    "fullwidth letters": lambda login: "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in login),
}


@pytest.mark.parametrize("how", LOOKALIKES)
def test_a_lookalike_of_a_classmates_login_is_flagged_as_a_claim(tmp_path, capsys, accounts, how):
    """Found: mallory's `progress submit --name` with alice's login plus a zero-width space, or with a
    Cyrillic "а" in it, gave a row that read "alice", nothing flagged, rc 0. Names are now compared after
    NFKC, without format characters, and by Unicode's confusables skeleton."""
    alice, mallory, _ = accounts
    lookalike = LOOKALIKES[how](alice.pw_name)
    if lookalike == alice.pw_name:
        pytest.skip(f"{alice.pw_name!r} has no letter with a Cyrillic twin")
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    submitted(capsys, tmp_path, inbox, "a.json", alice, alice.pw_name, [("0.1", "1.75", "correct", 0)])
    submitted(capsys, tmp_path, inbox, "m.json", mallory, lookalike, [("0.3", "12", "incorrect", 0)])

    code, out, err = run(capsys, "class", "report", inbox, "--format", "json")
    assert code == 1
    rows = {s["account"]: s for s in json.loads(out)["students"]}
    hers, his = rows[alice.pw_name], rows[mallory.pw_name]
    assert his["name"] == lookalike
    assert his["verification"]["name_claims"] == [
        {"file": str(inbox / "m.json"), "name": lookalike, "account": alice.pw_name, "reads_as": alice.pw_name,
         "owner": mallory.pw_name}]
    assert (hers["verification"]["name_shared_with"], his["verification"]["name_shared_with"]) == (
        [mallory.pw_name], [alice.pw_name])
    claim = (f"m.json names student {lookalike!r}, which reads as {alice.pw_name!r}, the name of account "
             f"{alice.pw_name}, but belongs to {mallory.pw_name}; its work is counted as {mallory.pw_name}'s")
    assert [line for line in err.splitlines() if line.endswith(claim)] != []


def test_a_name_that_only_shares_letters_with_a_login_is_not_a_claim(tmp_path, capsys, accounts):
    """The folding is Unicode's skeleton, not a guess: an accent makes another name, and so does a letter
    left out."""
    alice, mallory, _ = accounts
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    for number, name in enumerate([alice.pw_name + "\u0301", alice.pw_name[:-1]]):
        submitted(capsys, tmp_path, inbox, f"m{number}.json", mallory, name, [])
    code, out, err = run(capsys, "class", "report", inbox, "--format", "json")
    assert (code, err) == (0, "")
    assert [s["verification"]["name_claims"] for s in json.loads(out)["students"]] == [[], []]


def test_with_a_roster_a_lookalike_of_a_students_name_is_a_claim(tmp_path, capsys, accounts):
    alice, mallory, _ = accounts
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    submitted(capsys, tmp_path, inbox, "a.json", alice, "Alice Liddell", [("0.1", "1.75", "correct", 0)])
    submitted(capsys, tmp_path, inbox, "m1.json", mallory, "\u0410lice Liddell", [])   # a Cyrillic А
    submitted(capsys, tmp_path, inbox, "m2.json", mallory, "Alice\u200b Liddell", [])
    submitted(capsys, tmp_path, inbox, "m3.json", mallory, "AIice LiddeII", [])        # capital I for small l
    roster = tmp_path / "roster.txt"
    roster.write_text(f"{alice.pw_name}  Alice Liddell\n{mallory.pw_name}  Mallory M\n")

    code, out, err = run(capsys, "class", "report", inbox, "--roster", roster, "--format", "json")
    assert code == 1
    rows = {s["name"]: s for s in json.loads(out)["students"]}
    assert rows["Alice Liddell"]["verification"]["name_claims"] == []
    assert rows["Mallory M"]["verification"]["name_claims"] == [
        {"file": str(inbox / file), "name": name, "account": alice.pw_name, "reads_as": "Alice Liddell",
         "owner": mallory.pw_name}
        for file, name in [("m1.json", "\u0410lice Liddell"), ("m2.json", "Alice\u200b Liddell"),
                           ("m3.json", "AIice LiddeII")]]
    assert "m1.json names student 'Аlice Liddell', which reads as 'Alice Liddell', the name of account" in err

    roster.write_text(f"{alice.pw_name} Alice\n{mallory.pw_name} \u0430lice\n")   # two names that print alike
    code, out, err = run(capsys, "class", "report", inbox, "--roster", roster)
    assert (code, out) == (2, "")
    assert err == (f"ringbook class report: {roster}:2: '\u0430lice' reads as 'alice', which already names "
                   f"{alice.pw_name!r}; each name may belong to one account; no report made.\n")
