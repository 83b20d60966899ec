"""A `sponsio serve` process, plain HTTP to it, and headless Chromium on its page: for
tests/sponsio/test_serve.py and scripts/serve_screenshots.py."""

from __future__ import annotations

import http.client
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]


class Server:
    """`sponsio serve --port 0 --format json ARGS` in a process of its own; ``url``, ``port``, ``token``."""

    def __init__(self, *args: str, timeout: float = 900):
        self.log = tempfile.NamedTemporaryFile("w+", prefix="sponsio-serve-", suffix=".log", delete=False)
        cmd = [sys.executable, "-m", "sponsio_sim", "serve", "--port", "0", "--format", "json", *args]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=self.log, stdin=subprocess.DEVNULL,
                                     text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
        first: list[str] = []
        reader = threading.Thread(target=lambda: first.append(self.proc.stdout.readline()), daemon=True)
        reader.start()
        reader.join(timeout)
        if not first or not first[0].strip():
            self.proc.kill()
            raise RuntimeError(f"sponsio serve did not start: {self.stderr()[-2000:]}")
        info = json.loads(first[0])
        self.url, self.port, self.token = info["url"], info["port"], info["token"]

    def stderr(self) -> str:
        return Path(self.log.name).read_text()

    def connect(self, timeout: float = 120) -> http.client.HTTPConnection:
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)

    def request(self, method: str, path: str, body=None, headers: dict | None = None) -> tuple[int, dict, bytes]:
        """(status, headers, body); ``body``: a dict (sent as JSON) or bytes."""
        conn = self.connect()
        data = json.dumps(body).encode() if isinstance(body, dict) else body
        hdrs = {"Content-Type": "application/json"} if data is not None else {}
        conn.request(method, path, body=data, headers={**hdrs, **(headers or {})})
        r = conn.getresponse()
        out = (r.status, {k.lower(): v for k, v in r.getheaders()}, r.read())
        conn.close()
        return out

    def post(self, path: str, body: dict, headers: dict | None = None) -> tuple[int, dict]:
        status, _, data = self.request("POST", path, body, headers)
        return status, json.loads(data)

    def lines(self, path: str, body: dict) -> list[dict]:
        """A streamed answer's lines, read to the end."""
        status, _, data = self.request("POST", path, body)
        assert status == 200, data
        return [json.loads(line) for line in data.decode().splitlines() if line.strip()]

    def status(self) -> dict:
        return json.loads(self.request("GET", "/api/status")[2])

    def stop(self, sig=signal.SIGINT, timeout: float = 60) -> tuple[int, str]:
        """Send ``sig`` and wait: (exit status, what the server printed on stderr)."""
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        try:
            code = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            code = self.proc.wait()
        return code, self.stderr()


def chromium_paths() -> tuple[str | None, str | None]:
    return (shutil.which("chromium") or shutil.which("chromium-browser"),
            shutil.which("chromedriver") or shutil.which("chromium-driver"))


def browser_missing() -> str | None:
    """Why a browser test cannot run here, or None."""
    browser, driver = chromium_paths()
    if browser is None or driver is None:
        return ("Chromium and its driver are not installed (.ci/run installs Debian's chromium and "
                "chromium-driver where it can)")
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e \".[test]\")"
    return None


def chromium(width: int = 1366, height: int = 900):
    """Headless Chromium under selenium, with a fresh profile of its own (``driver.profile_dir``)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    browser, driver = chromium_paths()
    profile = tempfile.mkdtemp(prefix="sponsio-chromium-")
    opts = webdriver.ChromeOptions()
    opts.binary_location = browser
    for flag in CHROMIUM_FLAGS + [f"--user-data-dir={profile}", f"--window-size={width},{height}"]:
        opts.add_argument(flag)
    d = webdriver.Chrome(service=Service(executable_path=driver), options=opts)
    d.profile_dir = profile
    return d


def quit_browser(d) -> None:
    try:
        d.quit()
    finally:
        shutil.rmtree(d.profile_dir, ignore_errors=True)


class Page:
    """The page in a browser, driven as a player would: taps, selects, buttons."""

    def __init__(self, driver, url: str, timeout: float = 300):
        from selenium.webdriver.support.ui import WebDriverWait
        self.d, self.timeout = driver, timeout
        self.wait = lambda cond, t=None: WebDriverWait(driver, t or timeout, poll_frequency=0.05).until(cond)
        driver.get(url)
        self.wait(lambda d: d.execute_script("return document.body.dataset.ready") == "1")

    def js(self, script: str, *args):
        return self.d.execute_script(script, *args)

    def by_id(self, id_: str):
        from selenium.webdriver.common.by import By
        return self.d.find_element(By.ID, id_)

    def choose(self, id_: str, value: str) -> None:
        from selenium.webdriver.support.ui import Select
        Select(self.by_id(id_)).select_by_value(value)

    def table(self) -> dict:
        return self.js("return window.sponsio.table")

    def view(self) -> dict:
        return self.js("return window.sponsio.view")

    def tap(self, cards: list[str], into: str = "hand") -> None:
        from selenium.webdriver.common.by import By
        self.by_id(f"to-{into}").click()
        for card in cards:
            self.d.find_element(By.CSS_SELECTOR, f"#picker [data-card='{card}']").click()

    def recorded(self, act) -> None:
        """Do ``act()`` (a click) and wait until the server has recorded one more line."""
        before = len(self.table()["lines"])
        self.js("const m = document.getElementById('round-msg'); m.textContent = ''; m.classList.remove('bad')")
        act()
        self.wait(lambda d: len(self.table()["lines"]) > before or self.js(
            "return document.getElementById('round-msg').classList.contains('bad')"))
        assert len(self.table()["lines"]) > before, self.by_id("round-msg").text

    def line(self, text: str) -> None:
        box = self.by_id("line")
        box.clear()
        box.send_keys(text)
        self.recorded(lambda: self.by_id("line-btn").click())

    def play(self, card: str) -> None:
        from selenium.webdriver.common.by import By
        self.recorded(lambda: self.d.find_element(By.CSS_SELECTOR, f"#trick-cards [data-card='{card}']").click())

    def hand_odds(self, target: str = "0.01") -> dict:
        self.choose("target", target)
        self.js("delete document.getElementById('odds-state').dataset.done")
        self.by_id("odds-btn").click()
        self.wait(lambda d: self.js("return document.getElementById('odds-state').dataset.done") == "1")
        return self.js("return window.sponsio.odds")

    def ask(self, kind: str, n: int | None = None, seed: int | None = None, play: str = "profile") -> dict:
        """The page's answer (its JSON and the cells it shows) to advice or odds at the table now."""
        n_box = self.by_id("n")
        n_box.clear()
        if n is not None:
            n_box.send_keys(str(n))
        if seed is not None:
            self.by_id("seed").clear()
            self.by_id("seed").send_keys(str(seed))
        self.choose("play", play)
        self.by_id("ask-advise" if kind == "advise" else "ask-odds").click()
        self.wait(lambda d: self.js("return document.getElementById('answer-title').dataset.done") in
                  ("answer", "error"))
        assert self.js("return document.getElementById('answer-title').dataset.done") == "answer", \
            self.by_id("answer-title").text
        return self.js("return window.sponsio.last")

    def narration(self) -> str:
        self.js("document.getElementById('narration').value = ''")
        self.by_id("export").click()
        self.wait(lambda d: self.by_id("narration").get_attribute("value").startswith("rules "))
        return self.by_id("narration").get_attribute("value")
