"""The what-if explorer: its change sets, its server, and the page in a real browser.

The browser tests drive Debian's Chromium through Playwright (its own browser download is not
needed); they are skipped where either is missing. The exact answer is the oracle: the value
the page shows for a changed duel must agree with a seeded ``simulate`` of that changed
scenario within 4 standard errors, and the base scenario's value must not (the control).
"""

from __future__ import annotations

import http.client
import json
import math
import os
import shutil
from pathlib import Path
from urllib.parse import parse_qs, quote, urlsplit

import pytest
import yaml

from fuzion_sim import api
from fuzion_sim.errors import ScenarioError, error_lines, one_line
from fuzion_sim.explorer import Explorer
from fuzion_sim.explorer.server import ExploreServer
from fuzion_sim.explorer.state import changes_to_query, check_changes, parse_query
from fuzion_sim.scenario.variants import as_base

ROOT = Path(__file__).resolve().parents[2]
FLAGSHIP = ROOT / "scenarios" / "marshal-vs-outlaw.yaml"
CHROMIUM = (os.environ.get("FUZION_CHROMIUM") or shutil.which("chromium")
            or shutil.which("chromium-browser") or "/usr/bin/chromium")  # fmt: skip
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]  # fmt: skip
REF = "sides.red[0].stats.REF"


@pytest.fixture(scope="module")
def server():
    srv = ExploreServer(Explorer(FLAGSHIP, max_trials=16384, threads=2), port=0)
    srv.start()
    yield srv
    srv.shutdown()
    srv.server_close()


def _request(srv, method, path, body=None, headers=None):
    conn = http.client.HTTPConnection("127.0.0.1", srv.server_address[1], timeout=30)
    conn.request(method, path, body=body, headers=headers or {})
    reply = conn.getresponse()
    data = reply.read()
    conn.close()
    return reply.status, data


def _cli_lines(err) -> str:
    """What ``fuzion-sim`` prints for ``err`` (its ``_fail``)."""
    return "\n".join(f"fuzion-sim: error: {one_line(line)}" for line in error_lines(err))


# -- change sets ---------------------------------------------------------------------------
def test_change_sets_take_only_values_the_schema_allows():
    schema = Explorer(FLAGSHIP).schema
    assert check_changes(schema, {REF: "9", "rules.dice": "interlock"}) == [
        (REF, 9), ("rules.dice", "interlock")]  # fmt: skip
    with pytest.raises(ScenarioError, match="did you mean 'REF'"):
        check_changes(schema, {"sides.red[0].stats.RFE": "9"})
    with pytest.raises(ScenarioError, match="explorer sets only"):
        check_changes(schema, {"sides.red[0].name": "Bob"})  # free text
    with pytest.raises(ScenarioError, match="one number"):
        check_changes(schema, {REF: "{a: 1}"})  # a mapping, not a value
    with pytest.raises(ScenarioError, match="explorer sets only"):
        check_changes(schema, {"trials": "1000000000"})  # the explorer's own limit


def test_query_round_trip():
    changes = [(REF, 9), ("sides.red[0].skills.Ranged Evade", 4), ("rules.dice", "interlock")]
    text = changes_to_query(changes, {"mc": 1})
    back, options = parse_query(text)
    assert back == [(p, str(v)) for p, v in changes] and options == {"mc": "1"}


def test_saved_yaml_restores_the_changed_scenario(tmp_path):
    ex = Explorer(FLAGSHIP)
    text = ex.yaml({REF: "9", "sides.red[0].weapon.dc": "7"})
    assert text.startswith("# Saved by fuzion-sim explore") and f"#   {REF}: 9" in text
    saved = tmp_path / "saved.yaml"
    saved.write_text(text)
    want = api.exact_fight(as_base(FLAGSHIP).build([(REF, 9), ("sides.red[0].weapon.dc", 7)]))
    got = api.exact_fight(str(saved))
    assert got["sides"] == want["sides"]


def test_bad_value_gets_the_cli_message():
    ex = Explorer(FLAGSHIP)
    reply = ex.answer({REF: "abc"})
    with pytest.raises(ScenarioError) as err:
        as_base(str(FLAGSHIP)).build([(REF, "abc")])
    assert reply == {"ok": False, "error": _cli_lines(err.value)}
    assert "sides.red[0].stats.REF=abc: expected an integer" in reply["error"]


def test_monte_carlo_refines_and_pairs_with_the_base():
    ex = Explorer(FLAGSHIP, max_trials=16384, threads=2)
    reply = ex.answer({REF: "9"}, monte_carlo=True)
    job = next(j for j in ex._jobs.values() if j.id == reply["job"])
    job.join(60)
    snap = ex.job(reply["job"])
    assert snap["state"] == "done" and [s["trials"] for s in snap["stages"]] == [4096, 16384]
    answer = snap["answer"]
    exact = api.exact_fight(as_base(FLAGSHIP).build([(REF, 9)]))["sides"]["red"]["win_probability"]
    lo, hi = answer["sides"]["red"]["ci95"]
    se = (hi - lo) / (2 * 1.96)
    assert abs(answer["sides"]["red"]["p"] - exact) <= 4 * se
    d = answer["diff"]["sides"]["red"]
    assert d["ci95"][0] > 0 and d["ci95"][1] - d["ci95"][0] < hi - lo  # pairing narrows it
    ex.close()


# -- the server ----------------------------------------------------------------------------
def test_server_refuses_other_hosts_and_form_posts(server):
    assert server.server_address[0] == "127.0.0.1"
    status, _ = _request(server, "GET", "/api/controls", headers={"Host": "evil.example:80"})
    assert status == 403
    form = {"Content-Type": "application/x-www-form-urlencoded"}
    status, _ = _request(server, "POST", "/api/answer", body="changes=x", headers=form)
    assert status == 415
    cross = {"Content-Type": "application/json", "Origin": "http://evil.example"}
    status, _ = _request(server, "POST", "/api/answer", body="{}", headers=cross)
    assert status == 403
    status, body = _request(server, "POST", "/api/answer", body="x" * 70000,
                            headers={"Content-Type": "application/json"})  # fmt: skip
    assert status == 413
    status, body = _request(server, "GET", "/api/yaml?" + quote(REF) + "=9")
    assert status == 200 and yaml.safe_load(body)["sides"]["red"][0]["stats"]["REF"] == 9


# -- the page in a browser -----------------------------------------------------------------
@pytest.fixture(scope="module")
def page(server):
    missing = None
    try:
        from playwright import sync_api
    except ImportError:
        missing = "playwright is not installed (pip install -e '.[dev]')"
    if missing is None and not shutil.which(CHROMIUM):
        missing = f"no Chromium at {CHROMIUM} (make test installs it with apt-get)"
    if missing:
        if os.environ.get("CI"):
            pytest.fail(missing)
        pytest.skip(missing)
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        pg = browser.new_page()
        errors = []
        pg.on("pageerror", lambda e: errors.append(str(e)))
        yield pg
        browser.close()
        assert not errors


def _shown(pg, side="red") -> float:
    pg.wait_for_selector('#answer[data-state="exact"], #answer[data-state="done"]')
    return float(pg.get_attribute(f'#sides .p[data-side="{side}"]', "data-p"))


def test_page_change_matches_run_and_survives_reload(server, page):
    page.goto(server.url)
    base = _shown(page)
    field = page.locator(f'.ctl[data-path="{REF}"] input')
    assert field.input_value() == "8"
    field.fill("9")
    field.press("Enter")
    page.wait_for_function(
        "b => Number(document.querySelector('#sides .p[data-side=\"red\"]').dataset.p) !== b",
        arg=base,
    )
    changed = _shown(page)
    run = api.simulate(as_base(FLAGSHIP).build([(REF, 9)]), trials=20000, seed=11, threads=2)
    p, n = run.win_probability("red"), run.trials
    se = math.sqrt(p * (1 - p) / n)
    assert abs(changed - p) <= 4 * se  # what the page shows is what `run` gives
    assert abs(base - p) > 4 * se  # control: the base's answer is not
    assert parse_qs(urlsplit(page.url).query) == {REF: ["9"]}  # the URL holds the change
    page.reload()
    assert _shown(page) == changed
    assert page.locator(f'.ctl[data-path="{REF}"] input').input_value() == "9"
    assert "changed" in page.locator(f'.ctl[data-path="{REF}"]').get_attribute("class")


def test_page_shows_the_cli_message_for_a_bad_value(server, page):
    page.goto(server.url)
    _shown(page)
    field = page.locator(f'.ctl[data-path="{REF}"] input')
    field.fill("-4")
    field.press("Enter")
    page.wait_for_selector("#error:not([hidden])")
    with pytest.raises(ScenarioError) as err:
        as_base(str(FLAGSHIP)).build([(REF, -4)])
    assert page.text_content("#error") == _cli_lines(err.value)


def test_page_refines_a_monte_carlo_estimate(server, page):
    page.goto(f"{server.url}?{quote(REF)}=9&_mc=1")
    page.wait_for_selector('#answer[data-state="done"]', timeout=30000)
    assert page.get_attribute("#answer", "data-trials") == "16384"
    exact = api.exact_fight(as_base(FLAGSHIP).build([(REF, 9)]))["sides"]["red"]["win_probability"]
    cell = page.locator('#sides .p[data-side="red"]')
    p = float(cell.get_attribute("data-p"))
    lo, hi = float(cell.get_attribute("data-lo")), float(cell.get_attribute("data-hi"))
    assert abs(p - exact) <= 4 * (hi - lo) / (2 * 1.96)
    assert "paired" in page.text_content("#method")
    assert parse_qs(urlsplit(page.url).query) == {REF: ["9"], "_mc": ["1"]}


# -- the command ---------------------------------------------------------------------------
def test_command_bad_scenario_is_one_line():
    from click.testing import CliRunner

    from fuzion_sim.cli import cli

    res = CliRunner().invoke(cli, ["explore", "no-such-file.yaml", "--no-browser"])
    assert res.exit_code == 2
    assert res.output.startswith("fuzion-sim: error: ") and res.output.count("\n") == 1


def test_command_serves_on_loopback_until_interrupted():
    import signal
    import subprocess
    import sys
    import urllib.request

    proc = subprocess.Popen(
        [sys.executable, "-m", "fuzion_sim.cli", "explore", str(FLAGSHIP), "--port", "0",
         "--no-browser"], stderr=subprocess.PIPE, text=True, cwd=ROOT,
    )  # fmt: skip
    try:
        line = proc.stderr.readline()
        assert line.startswith("fuzion-sim explore: http://127.0.0.1:"), line
        url = line.split()[2]
        with urllib.request.urlopen(url + "api/controls", timeout=30) as reply:
            controls = json.loads(reply.read())
        assert controls["scenario"] == "Marshal vs outlaw at close range" and controls["exact"]
    finally:
        proc.send_signal(signal.SIGINT)
        assert proc.wait(30) == 0
        proc.stderr.close()


def test_notebook_explore_serves_the_same_page():
    import urllib.request

    import fuzion_sim as fz

    view = fz.explore(str(FLAGSHIP), max_trials=4096, threads=1, widgets=False)
    try:
        assert view.url.startswith("http://127.0.0.1:") and view.url in view._repr_html_()
        with urllib.request.urlopen(view.url, timeout=30) as reply:
            assert b"/static/app.js" in reply.read()
        answer = view.explorer.answer({REF: "9"})
        assert answer["answer"]["method"] == "exact"
    finally:
        view.stop()


@pytest.mark.parametrize(("kwargs", "name"), [
    ({"port": 70000}, "port"), ({"port": "80"}, "port"), ({"height": 5}, "height"),
    ({"max_trials": 0}, "max_trials"), ({"threads": 0}, "threads"),
])  # fmt: skip
def test_notebook_explore_names_a_bad_argument(kwargs, name):
    import fuzion_sim as fz
    from fuzion_sim.errors import ArgumentError

    with pytest.raises(ArgumentError, match=name):
        fz.explore(str(FLAGSHIP), **kwargs)
