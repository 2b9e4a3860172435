"""The live class model over a real inbox: learners' stores filled through the store API, their exports
written by the real export writer, and every figure checked against what the test recorded."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

from grader.book.load import load_book
from tests.class_inbox import NOW, Class
from tests.face.test_review_recall import right_answer
from tests.hostile_exports import make_attacks
from tui.progress.class_live import STUCK_WINDOW, ClassLive, Stuck, mistake_name
from tui.progress.class_live_text import stuck_line


@pytest.fixture(scope="module")
def book():
    return load_book()


@pytest.fixture
def lesson(tmp_path) -> Class:
    return Class(tmp_path)


def cells(snapshot, name: str) -> dict[str, str]:
    [learner] = [s for s in snapshot.learners if s.name == name]
    return {chapter_id: cell.state for chapter_id, cell in snapshot.chapters[learner.key].items()}


def test_heat_map_states_per_chapter_and_per_exercise(book, lesson):
    chapter_0 = [e for e in book.chapters[0].exercises]
    lesson.answer("ana", [(e.id, right_answer(e), "correct", 30) for e in chapter_0] + [("1.1", "1", "incorrect", 20)])
    lesson.answer("ben", [("0.1", "0.875", "incorrect", 5)])
    live = ClassLive(book, lesson.inbox)
    live.refresh()
    snapshot = live.snapshot(NOW)
    assert [s.name for s in snapshot.learners] == ["ana", "ben"]
    ana = cells(snapshot, "ana")
    assert (ana["0"], ana["1"], ana["2"]) == ("solved", "tried", "not started")
    assert snapshot.chapters[("ana", snapshot.learners[0].owner)]["0"].solved == len(chapter_0)
    ben = snapshot.learners[1]
    assert (cells(snapshot, "ben")["0"], ben.exercises["0.1"].state) == ("tried", "tried")
    assert "0.2" not in ben.exercises
    assert snapshot.learners[0].exercises["0.1"].state == "solved"


def test_stuck_after_three_wrong_in_a_row_within_the_window(book, lesson):
    lesson.answer("ana", [("0.1", "0.875", "incorrect", 7), ("0.1", "14", "incorrect", 4),
                          ("0.1", "3", "incorrect", 1)])
    lesson.answer("ben", [("0.1", "0.875", "incorrect", 7), ("0.1", "14", "incorrect", 4),
                          ("0.1", "3", "incorrect", 2), ("0.1", "1.75", "correct", 1)])
    lesson.answer("cy", [("0.1", "0.875", "incorrect", 2), ("0.1", "14", "incorrect", 1)])
    live = ClassLive(book, lesson.inbox)
    live.refresh()
    [stuck] = live.snapshot(NOW).stuck
    assert (stuck.learner, stuck.exercise_id, stuck.wrong) == ("ana", "0.1", 3)
    assert NOW - stuck.since == timedelta(minutes=7)
    # later, past the window from the first of them: two wrong within it are not stuck
    assert live.snapshot(NOW + STUCK_WINDOW - timedelta(minutes=6.5)).stuck == ()
    # cy's third wrong answer makes cy stuck; a right one from ana ends ana's
    lesson.answer("cy", [("0.1", "2", "incorrect", 0)])
    lesson.answer("ana", [("0.1", "1.75", "correct", 0)])
    live.refresh()
    assert [(s.learner, s.wrong) for s in live.snapshot(NOW).stuck] == [("cy", 3)]


def test_slips_count_learners_and_name_the_books_mistake(book, lesson):
    """Three learners make the first named mistake of 0.1 (one of them twice): one slip, three learners;
    an answer no mistake names is grouped by its text; a slip older than the window is not counted."""
    lesson.answer("ana", [("0.1", "0.875", "incorrect", 3), ("0.1", "0.875", "incorrect", 2)])
    lesson.answer("ben", [("0.1", "0.875", "incorrect", 1), ("0.3", "44", "incorrect", 1)])
    lesson.answer("cy", [("0.1", "0.875", "incorrect", 2), ("0.3", "44", "incorrect", 60)])
    live = ClassLive(book, lesson.inbox)
    live.refresh()
    first, second = live.snapshot(NOW).slips
    assert (first.exercise_id, first.mistake, first.learners, first.attempts) == ("0.1", 1, 3, 4)
    assert first.name == "That is one phase only"
    assert (second.exercise_id, second.mistake, second.name, second.learners) == ("0.3", None, "44", 1)


def test_first_try_rate_and_median_attempts(book, lesson):
    lesson.answer("ana", [("0.1", "1.75", "correct", 9)])
    lesson.answer("ben", [("0.1", "3", "incorrect", 9), ("0.1", "1.75", "correct", 8)])
    lesson.answer("cy", [("0.1", "3", "incorrect", 9), ("0.1", "4", "incorrect", 8), ("0.1", "5", "incorrect", 7),
                         ("0.1", "1.75", "correct", 6)])
    lesson.answer("dee", [("0.1", "3", "incorrect", 9)])
    live = ClassLive(book, lesson.inbox)
    live.refresh()
    figures = live.snapshot(NOW).figures
    assert (figures["0.1"].tried, figures["0.1"].solved) == (4, 3)
    assert figures["0.1"].first_try_rate == pytest.approx(1 / 4)
    assert figures["0.1"].median_attempts == 2
    assert (figures["0.2"].tried, figures["0.2"].first_try_rate, figures["0.2"].median_attempts) == (0, None, None)


def test_attempts_are_regraded_and_a_tampered_one_is_not_counted(book, lesson):
    """Ana's export claims a wrong answer was right: it is kept in her list, marked, and counts for nothing."""
    path = lesson.answer("ana", [("0.1", "3", "incorrect", 2), ("0.2", "70", "correct", 1)])
    data = json.loads(path.read_text())
    data["attempts"][0]["status"] = "correct"
    path.write_text(json.dumps(data))
    live = ClassLive(book, lesson.inbox)
    live.refresh()
    [ana] = live.snapshot(NOW).learners
    [attempt] = ana.exercises["0.1"].recent
    assert (attempt.answer, attempt.recorded, attempt.regraded, attempt.status) == ("3", "correct", "tampered", None)
    assert ana.exercises["0.1"].state == "not started"
    assert ana.exercises["0.2"].recent[0].regraded == "correct"


def test_only_changed_files_are_read_again_and_a_removed_file_drops_out(book, lesson):
    lesson.answer("ana", [("0.1", "1.75", "correct", 5)])
    ben = lesson.answer("ben", [("0.1", "3", "incorrect", 5)])
    live = ClassLive(book, lesson.inbox)
    assert live.refresh() and live.reads == 2
    assert live.refresh() == set() and live.reads == 2        # nothing changed: nothing read
    lesson.answer("ana", [("0.2", "70", "correct", 1)])      # replaced by rename, as the app writes it
    changed = live.refresh()
    assert live.reads == 3 and [name for name, _ in changed] == ["ana"]
    assert live.snapshot(NOW).learners[0].exercises["0.2"].state == "solved"
    ben.unlink()
    assert [name for name, _ in live.refresh()] == ["ben"] and live.reads == 3
    assert [s.name for s in live.snapshot(NOW).learners] == ["ana"]


def test_a_learners_hand_ins_and_live_file_are_one_learner_counted_once(book, lesson):
    """`progress submit` copies beside the live file: the same attempts (the same uids) count once."""
    live_file = lesson.answer("ana", [("0.1", "3", "incorrect", 5), ("0.1", "1.75", "correct", 4)])
    (lesson.inbox / "ana-20261201T095500Z-00112233445566778899.json").write_bytes(live_file.read_bytes())
    live = ClassLive(book, lesson.inbox)
    live.refresh()
    [ana] = live.snapshot(NOW).learners
    assert (ana.exercises["0.1"].attempts, ana.exercises["0.1"].tries_to_solve) == (2, 2)


def test_hostile_files_are_skipped_with_the_class_reports_reasons(book, lesson, tmp_path):
    honest = lesson.answer("ana", [("0.1", "1.75", "correct", 5)])
    outside = tmp_path / "elsewhere.json"
    outside.write_text(honest.read_text())
    expected = make_attacks(lesson.inbox, json.loads(honest.read_text()), outside)
    live = ClassLive(book, lesson.inbox)
    live.refresh()
    snapshot = live.snapshot(NOW)
    assert [s.name for s in snapshot.learners] == ["ana"]
    assert len(snapshot.skipped) == len(expected)
    for name, reason in expected.items():
        [line] = [line for line in snapshot.skipped if line.startswith(f"{lesson.inbox / name}: ")]
        assert reason in line, line


def test_a_mistake_is_named_by_its_feedbacks_first_sentence():
    assert mistake_name("That is one phase only. The all-gather phase sends just as much again.") == \
        "That is one phase only"
    assert len(mistake_name("x" * 100)) == 40


def test_a_row_edited_in_place_is_checked_again_when_its_file_is_read_again(book, lesson):
    """Rows unchanged since the last read are not checked again (export_file.RowMemo); one edited is, to the
    type: `"seed": false` is not the `0` it equals in Python, and gets the class report's reason."""
    path = lesson.answer("ana", [("0.1", "3", "incorrect", 3), ("0.2", "70", "correct", 2)])
    live = ClassLive(book, lesson.inbox)
    live.refresh()
    data = json.loads(path.read_text())
    data["attempts"][0]["status"] = "correct"
    path.write_text(json.dumps(data))
    live.refresh()
    [ana] = live.snapshot(NOW).learners
    assert ana.exercises["0.1"].recent[0].regraded == "tampered"
    assert ana.exercises["0.2"].recent[0].regraded == "correct"
    data["attempts"][0]["seed"] = False   # == 0, the seed it had: only its type differs
    path.write_text(json.dumps(data))
    live.refresh()
    snapshot = live.snapshot(NOW)
    assert snapshot.learners == ()
    [skipped] = snapshot.skipped
    assert skipped.startswith(f"{path}: ") and "'seed' has the wrong type (bool)" in skipped


def test_stuck_and_slips_kept_per_learner_are_what_a_fresh_read_finds_at_every_moment(book, lesson):
    """A snapshot takes each learner's stuck and slips from the last one while no attempt has entered or left
    a window since: at every half minute across the windows, forwards and back (attempts after the moment
    asked about count only from their time), they are what a view reading the inbox afresh works out."""
    lesson.answer("ana", [("0.1", "0.875", "incorrect", 12), ("0.1", "14", "incorrect", 9),
                          ("0.1", "3", "incorrect", 7), ("0.1", "0.875", "incorrect", 4),
                          ("0.3", "44", "incorrect", 2)])
    lesson.answer("ben", [("0.1", "0.875", "incorrect", 8), ("0.1", "1.75", "correct", 5),
                          ("0.3", "44", "incorrect", 3), ("0.3", "44", "incorrect", 1)])
    kept = ClassLive(book, lesson.inbox)
    kept.refresh()
    moments = [NOW + timedelta(minutes=m / 2) for m in range(-30, 50)]
    for moment in moments + moments[::-1]:
        fresh = ClassLive(book, lesson.inbox)
        fresh.refresh()
        now, then = kept.snapshot(moment), fresh.snapshot(moment)
        assert (now.stuck, now.slips) == (then.stuck, then.slips), moment
    assert {s.learner for s in kept.snapshot(NOW).stuck} == {"ana"}
    assert kept.snapshot(NOW + STUCK_WINDOW).stuck == ()


def test_an_inbox_that_cannot_be_listed_keeps_the_class_as_last_read_and_says_why(book, lesson, tmp_path):
    """Its permissions changed, its disk went away: an empty listing took every learner off the view, as if the
    class had gone home. The class stays as it was and the snapshot says why, until the inbox can be listed."""
    lesson.answer("ana", [("0.1", "1.75", "correct", 5)])
    live = ClassLive(book, lesson.inbox)
    live.refresh()
    lesson.inbox.rename(tmp_path / "away")
    assert live.refresh() == set()
    snapshot = live.snapshot(NOW)
    assert [s.name for s in snapshot.learners] == ["ana"] and snapshot.unlisted == "No such file or directory"
    (tmp_path / "away").rename(lesson.inbox)
    live.refresh()
    assert live.snapshot(NOW).unlisted == "" and [s.name for s in live.snapshot(NOW).learners] == ["ana"]


def test_a_stuck_line_in_a_narrow_panel_shortens_the_name_not_the_facts():
    """At 80x24 "alice · 0.1 · 3 wrong · <1 min" was cut to "... · <1 …": the time, the one fact that grows."""
    stuck = Stuck("alexandra", "0.1", 3, NOW - timedelta(seconds=30))
    assert stuck_line(stuck, NOW) == "alexandra · 0.1 · 3 wrong · <1 min"
    assert stuck_line(stuck, NOW, width=30) == "alex… · 0.1 · 3 wrong · <1 min"
    assert stuck_line(stuck, NOW, width=10) == "ale… · 0.1 · 3 wrong · <1 min"   # at least four of the name
    assert stuck_line(stuck, NOW, width=80) == stuck_line(stuck, NOW)
