"""The report stamp: which commit built it, and whether the checkout differed from it."""

import shutil
import subprocess

import pytest

from tabletop_mc.htmlreport import stamp_text


def git(repo, *args):
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=repo, check=True,
                   capture_output=True)


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_a_report_rewriting_its_own_folder_does_not_mark_the_commit_dirty(tmp_path):
    (tmp_path / "reports").mkdir()
    (tmp_path / "reports" / "index.html").write_text("old")
    (tmp_path / "code.py").write_text("x = 1")
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", ".")
    git(tmp_path, "commit", "-q", "-m", "c")
    clean = stamp_text("sponsio-sim", "x", tmp_path / "reports", repo=tmp_path)
    assert "commit " in clean and "uncommitted" not in clean
    (tmp_path / "reports" / "index.html").write_text("new")
    assert "uncommitted" not in stamp_text("sponsio-sim", "x", tmp_path / "reports", repo=tmp_path)
    assert "(with uncommitted changes)" in stamp_text("sponsio-sim", "x", repo=tmp_path)
    (tmp_path / "code.py").write_text("x = 2")
    assert "(with uncommitted changes)" in stamp_text("sponsio-sim", "x", tmp_path / "reports", repo=tmp_path)
