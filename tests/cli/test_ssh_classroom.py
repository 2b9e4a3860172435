"""The classroom recipe, end to end: a real OpenSSH server on loopback forces ringbook on every login, a
real ssh client in an 80x24 tmux pane answers an exercise with the keyboard, and the attempt lands in
that student's store, stamped with the student's own time zone (sent with SendEnv TZ).

sshd runs as the current user on a free high port, with a throwaway host key and user key; it needs no
root. The tests are skipped, with the reason, only where sshd, ssh, ssh-keygen or tmux are missing
(`.ci/run` installs them with apt-get where it can).
"""

from __future__ import annotations

import getpass
import os
import shlex
import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest

from tests.helpers import RINGBOOK, free_port
from tests.tmux_pane import TmuxPane
from tui.progress.store import ProgressStore

# A POSIX zone 5 h 45 min ahead of UTC (as Nepal is); no machine runs on it, so seeing this offset in
# the store proves the student's TZ crossed the connection.
STUDENT_TZ = "XYZ-5:45"
STUDENT_OFFSET_MINUTES = 5 * 60 + 45


def program(name: str) -> str | None:
    """sshd lives in /usr/sbin, which is not on every user's PATH."""
    return shutil.which(name) or shutil.which(name, path="/usr/sbin:/sbin")


def sshd_config(folder: Path, port: int, data_dir: Path) -> Path:
    """The docs/classroom.md recipe, shrunk to one user on loopback: ForceCommand runs ringbook whatever
    the client asks for, and TZ, LANG, COLORTERM and RINGBOOK_SCREEN_READER are accepted from the client."""
    ringbook = shlex.join(["env", f"RINGBOOK_DATA_DIR={data_dir}", *RINGBOOK])
    config = folder / "sshd_config"
    config.write_text(f"""\
Port {port}
ListenAddress 127.0.0.1
HostKey {folder / 'host_key'}
PidFile {folder / 'sshd.pid'}
AuthorizedKeysFile {folder / 'authorized_keys'}
AllowUsers {getpass.getuser()}
UsePAM no
StrictModes no
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
PermitUserEnvironment no
AllowTcpForwarding no
X11Forwarding no
PermitTTY yes
PrintMotd no
PrintLastLog no
AcceptEnv TZ LANG LC_* COLORTERM RINGBOOK_SCREEN_READER
ForceCommand {ringbook}
""")
    return config


@pytest.fixture
def classroom(tmp_path: Path):
    """A running sshd that forces ringbook on a temp data dir; yields (ssh command, data dir)."""
    sshd, ssh, keygen = program("sshd"), program("ssh"), program("ssh-keygen")
    missing = [name for name, found in (("sshd", sshd), ("ssh", ssh), ("ssh-keygen", keygen),
                                        ("tmux", shutil.which("tmux"))) if not found]
    if missing or sshd is None or keygen is None:
        pytest.skip(f"{', '.join(missing)} not installed (apt-get install openssh-server openssh-client tmux)")
    if os.geteuid() == 0:
        # As root, sshd insists on its privilege-separation folder, which the package's init script makes.
        Path("/run/sshd").mkdir(mode=0o755, exist_ok=True)
    folder = tmp_path / "ssh"
    folder.mkdir()
    for key in ("host_key", "user_key"):
        subprocess.run([keygen, "-q", "-t", "ed25519", "-N", "", "-f", str(folder / key)], check=True)
    shutil.copy(folder / "user_key.pub", folder / "authorized_keys")
    data_dir = tmp_path / "student-data"
    port = free_port()
    config = sshd_config(folder, port, data_dir)
    log = (folder / "sshd.log").open("w")
    server = subprocess.Popen([sshd, "-f", str(config), "-D", "-e"], stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_listening(server, port, folder / "sshd.log")
        command = [ssh, "-F", "/dev/null", "-i", str(folder / "user_key"), "-p", str(port),
                   "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null", "-o", "BatchMode=yes",
                   "-o", "IdentitiesOnly=yes", "-o", "LogLevel=ERROR", "-o", "SendEnv=TZ",
                   f"{getpass.getuser()}@127.0.0.1"]
        yield command, data_dir
    finally:
        server.terminate()
        server.wait(timeout=10)
        log.close()


def wait_listening(server: subprocess.Popen, port: int, log: Path, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise AssertionError(f"sshd exited with {server.returncode}:\n{log.read_text()}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"sshd did not listen on port {port} within {timeout}s:\n{log.read_text()}")


def test_student_answers_an_exercise_over_ssh(classroom, tmp_path: Path):
    ssh, data_dir = classroom
    pane = TmuxPane(tmp_path, ["env", f"TZ={STUDENT_TZ}", *ssh[:1], "-tt", *ssh[1:]])
    try:
        pane.wait_for("Mastery 0 /", timeout=60)        # the first start builds the book cache
        pane.press("Enter")                              # open chapter 0
        pane.wait_for("e Exercises")
        pane.press("e")
        pane.wait_for("0.1  Traffic per GPU")
        pane.press("Enter")                              # open exercise 0.1
        pane.wait_for("a number, e.g.")
        pane.type("7/4")
        pane.press("Enter")
        pane.wait_for("Correct: 1.75 GB")
        pane.press("Escape", "q")                        # leave the answer box, quit
        assert pane.wait_exit() == 0, pane.screen()
    finally:
        pane.close()

    store = ProgressStore.open(data_dir)
    try:
        attempts = store.attempts()
    finally:
        store.close()
    assert [(a.exercise_id, a.answer, a.status) for a in attempts] == [("0.1", "7/4", "correct")]
    assert attempts[0].utc_offset_minutes == STUDENT_OFFSET_MINUTES


def test_ssh_without_a_terminal_gets_plain_lines(classroom):
    """A script running `ssh host` without -t gets the plain-line face (there is no terminal for the app), which
    ends cleanly at the end of its input, not a hang; the command it asked for is ignored (ForceCommand)."""
    ssh, _ = classroom
    done = subprocess.run([*ssh, "-T", "cat /etc/passwd"], capture_output=True, text=True, timeout=60,
                          stdin=subprocess.DEVNULL, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ringbook: screen-reader mode is on: input or output is not a terminal.")
    assert "root:" not in done.stdout and "\x1b" not in done.stdout
    assert done.stdout.endswith("bye: your progress is kept\n")


def test_a_screen_reader_user_asks_for_lines_over_ssh_with_accept_env(classroom):
    """RINGBOOK_SCREEN_READER=1 sent by the client (SendEnv) and accepted by sshd (AcceptEnv) chooses the lines."""
    ssh, _ = classroom
    done = subprocess.run([ssh[0], "-o", "SendEnv=RINGBOOK_SCREEN_READER", *ssh[1:], "-T"], input="6\nquit\n",
                          capture_output=True, text=True, timeout=60, check=False,
                          env={**os.environ, "RINGBOOK_SCREEN_READER": "1"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ringbook: screen-reader mode is on: RINGBOOK_SCREEN_READER is set.")
    assert "mastery: 0 / " in done.stdout
