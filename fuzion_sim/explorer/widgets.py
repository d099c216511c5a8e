"""``fz.explore("scenario.yaml")`` as Jupyter widgets: the explorer's controls and answer in
the kernel, with no web server.

The view sits over one :class:`~fuzion_sim.explorer.session.Explorer`, the same object the page
asks: its controls come from :meth:`Explorer.controls` (built from the system's JSON Schema),
a change goes through :meth:`Explorer.answer` (so a bad value gets the CLI's one-line message),
the exact answer shows at once, and otherwise a background thread polls the Explorer's job and
rewrites the answer's HTML as each stage refines the estimate. Numbers use unbounded fields, so
a value out of range reaches the loader and gets its message rather than being clamped
silently; the range is in the tooltip.
"""

from __future__ import annotations

import html
import threading
import time

import ipywidgets as w

from .session import DEFAULT_MAX_TRIALS, Explorer

__all__ = ["POLL_SECONDS", "ExplorerWidget", "explore_widgets"]

#: Seconds between two looks at a running Monte Carlo job.
POLL_SECONDS = 0.12
_LAYOUT = {"width": "auto"}
_STYLE = {"description_width": "150px"}


def _pct(p) -> str:
    return "–" if p is None else f"{100 * p:.2f}%"


def _pts(d) -> str:
    return f"{'+' if d >= 0 else '−'}{abs(100 * d):.2f} pts"


def _tip(ctl: dict) -> str:
    tip = ctl["path"] + (f" — {ctl['description']}" if ctl.get("description") else "")
    if ctl.get("kind") == "number":
        low, high = ctl.get("min"), ctl.get("max")
        if low is not None or high is not None:
            tip += f" (range {'' if low is None else low} to {'' if high is None else high})"
    return tip


def _answer_html(answer: dict, snap: dict | None) -> str:
    """The answer as HTML: the method, each side's win probability (with its 95% interval and
    paired difference from the base where there is one), draws and the mean kill time."""
    esc = html.escape
    if answer["method"] == "exact":
        head = f"Exact answer ({esc(answer.get('detail') or '')})"
    else:
        more = ("final" if answer.get("done") else
                f"refining to {snap['cap']:,}" if snap else "refining")  # fmt: skip
        head = f"Monte Carlo: {answer['trials']:,} trials ({esc(answer['detail'])}), {more}"
        if answer.get("diff"):
            head += "; differences paired on common random numbers"
    rows = []
    for side, v in answer["sides"].items():
        ci = f"95% {_pct(v['ci95'][0])} – {_pct(v['ci95'][1])}" if v.get("ci95") else "exact"
        diff = ""
        d = (answer.get("diff") or {}).get("sides", {}).get(side)
        if d is not None and d.get("diff") is not None:
            diff = _pts(d["diff"])
            if d.get("ci95"):
                diff += f" [{100 * d['ci95'][0]:.2f}, {100 * d['ci95'][1]:.2f}]"
            diff += " vs base"
        rows.append(f'<tr><th>{esc(side)} wins</th><td class="p" data-side="{esc(side)}" '
                    f'data-p="{float(v["p"])!r}">{_pct(v["p"])}</td><td>{ci}</td><td>{diff}</td></tr>')
    other = []
    if answer.get("draw"):
        other.append(f"draw {_pct(answer['draw'])}")
    if (answer.get("unresolved") or 0) > 1e-9:
        other.append(f"unresolved {_pct(answer['unresolved'])}")
    kt = answer.get("kill_time") or {}
    if kt.get("mean") is not None:
        text = f"mean kill time {kt['mean']:.2f} {esc(str(kt.get('unit') or ''))}s"
        dk = (answer.get("diff") or {}).get("kill_time_mean")
        if dk:
            text += f" ({'+' if dk['diff'] >= 0 else '−'}{abs(dk['diff']):.2f}"
            if dk.get("ci95"):
                text += f" [{dk['ci95'][0]:.2f}, {dk['ci95'][1]:.2f}]"
            text += " vs base)"
        other.append(text)
    trials = "" if answer.get("trials") is None else f' data-trials="{answer["trials"]}"'
    return (f'<div class="fz-answer" data-method="{esc(answer["method"])}"{trials}>'
            f"<b>{head}</b><table>{''.join(rows)}</table>"
            f"<div>{'; '.join(other)}</div></div>")  # fmt: skip


class ExplorerWidget:
    """The explorer as ipywidgets: a control per key, grouped by side and member, and an
    answer that is exact at once or refines while a background job runs.

    Parameters
    ----------
    explorer : Explorer
        The answers' source (its base scenario, caps and threads).

    Attributes
    ----------
    explorer : Explorer
    controls : dict of str to ipywidgets.Widget
        The control of each key path (``sides.red[0].stats.REF``).
    answer_html : ipywidgets.HTML
        The answer; ``state`` says what it shows (``exact``, ``running``, ``done``,
        ``cancelled``, ``error``), ``answer`` its data and ``error`` the message of a bad value.
    changes : dict of str to object
        The change set from the base scenario, in the order made.
    widget : ipywidgets.VBox
        The whole view (the object displays it).
    """

    def __init__(self, explorer: Explorer):
        self.explorer = explorer
        self.info = explorer.controls()
        self.changes: dict[str, object] = {}
        self.controls: dict[str, w.Widget] = {}
        self._base: dict[str, object] = {}
        self._seq = 0
        self._lock = threading.Lock()
        self._poller: threading.Thread | None = None
        self._silent = False
        self.state, self.answer, self.error = "asking", None, None
        self.answer_html = w.HTML(layout=_LAYOUT)
        self.error_html = w.HTML(layout=_LAYOUT)
        self.changed_label = w.HTML(layout=_LAYOUT)
        self.monte_carlo = w.Checkbox(
            value=False, description="Monte Carlo even where exact", indent=False,
            tooltip="Estimate by simulation even where the system has an exact answer")  # fmt: skip
        self.monte_carlo.observe(lambda _change: self.ask(), names="value")
        reset = w.Button(description="Reset", tooltip="Back to the base scenario")
        reset.on_click(lambda _button: self.reset())
        title = (f"<b>{html.escape(self.info['scenario'])}</b> — {html.escape(self.info['title'])}"
                 f" (seed {self.info['seed']}, at most {self.info['max_trials']:,} trials)")
        self.widget = w.VBox([w.HTML(title), self._groups(),
                              w.HBox([self.monte_carlo, reset]), self.changed_label,
                              self.error_html, self.answer_html])  # fmt: skip
        self.ask()

    # -- controls --------------------------------------------------------------------------
    def _control(self, ctl: dict) -> w.Widget:
        path, value, kind = ctl["path"], ctl["value"], ctl["kind"]
        common = {"description": ctl["label"], "tooltip": _tip(ctl), "style": _STYLE,
                  "layout": _LAYOUT}  # fmt: skip
        if kind in ("choice", "bool"):
            options = ([("true", True), ("false", False)] if kind == "bool" else
                       [(str(c), c) for c in ctl["choices"]])  # fmt: skip
            if value is None:
                options.insert(0, ("(default)", None))
            elif value not in [v for _, v in options]:
                options.insert(0, (str(value), value))
            box = w.Dropdown(options=options, value=value, **common)
        elif kind == "number" and value is not None and not isinstance(value, bool):
            cls = w.IntText if ctl.get("integer") and isinstance(value, int) else w.FloatText
            box = cls(value=value, **common)
        else:  # a catalogue name, a mixed value, or a number left to its default
            box = w.Combobox(value="" if value is None else str(value),
                             options=[str(c) for c in ctl.get("choices") or []],
                             ensure_option=False, placeholder="(default)", **common)  # fmt: skip
        self._base[path] = box.value
        box.observe(lambda change, p=path: self._changed(p, change["new"]), names="value")
        self.controls[path] = box
        return box

    def _groups(self) -> w.Widget:
        """An accordion a side, a member's panel in it, and the rules' and scenario's panels;
        each panel's keys the scenario leaves to their defaults fold into a "more" panel."""
        rules, by_side = [], {}
        for group in self.info["groups"]:
            if not group["controls"] and not group["more"]:
                continue
            items = [self._control(c) for c in group["controls"]]
            if group["more"]:
                more = w.Accordion([w.VBox([self._control(c) for c in group["more"]])],
                                   titles=(f"{len(group['more'])} more (defaults)",))
                more.selected_index = None
                items.append(more)
            panel = (group["title"], w.VBox(items))
            (rules if group["side"] is None else by_side.setdefault(group["side"], [])).append(
                panel)  # fmt: skip
        sections = [("Rules and scenario", rules)]
        sections += [(f"Side {side}", panels) for side, panels in by_side.items()]
        outer = []
        for _, panels in sections:
            inner = w.Accordion([p for _, p in panels], titles=tuple(t for t, _ in panels))
            inner.selected_index = 0 if panels else None
            outer.append(inner)
        acc = w.Accordion(outer, titles=tuple(t for t, _ in sections))
        acc.selected_index = 1 if len(outer) > 1 else 0
        if self.info.get("hidden_members"):
            note = w.HTML(f"{self.info['hidden_members']} more members: change them with "
                          f"<code>view.set(key_path, value)</code>.")  # fmt: skip
            return w.VBox([acc, note])
        return acc

    def _changed(self, path: str, value) -> None:
        if self._silent:
            return
        if value == self._base[path] or value == "":
            self.changes.pop(path, None)
        else:
            self.changes[path] = value
        self.ask()

    # -- what code can do ------------------------------------------------------------------
    def set(self, path: str, value) -> None:
        """Change the value at ``path`` (its control's value where it has one, else the
        change set: a member beyond those shown), and ask again."""
        box = self.controls.get(path)
        fits = not isinstance(box, w.IntText | w.FloatText) or (
            isinstance(value, int | float) and not isinstance(value, bool)
            and (isinstance(value, int) or isinstance(box, w.FloatText)))  # fmt: skip
        if box is not None and fits:
            box.value = value
            return
        self.changes[path] = value  # no control, or text a number field cannot hold
        self.ask()

    def reset(self) -> None:
        """Back to the base scenario."""
        self._silent = True
        try:
            for path, box in self.controls.items():
                box.value = self._base[path]
        finally:
            self._silent = False
        self.changes.clear()
        self.ask()

    def yaml(self) -> str:
        """The changed scenario as YAML with a comment of what changed."""
        return self.explorer.yaml(list(self.changes.items()))

    def wait(self, timeout: float = 30.0, trials: int | None = None) -> str:
        """Wait until the answer is final (or shows at least ``trials`` trials) or ``timeout``
        seconds pass; returns ``state``."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.state in ("exact", "done", "error", "cancelled"):
                break
            if trials is not None and self.answer and (self.answer.get("trials") or 0) >= trials:
                break
            time.sleep(0.02)
        return self.state

    def close(self) -> None:
        """Stop polling, cancel every running estimate and close the widgets."""
        with self._lock:
            self._seq += 1
        self.explorer.close()
        for box in self.controls.values():
            box.close()
        self.widget.close()

    # -- answers ---------------------------------------------------------------------------
    def ask(self) -> None:
        """Ask the Explorer for the current change set's answer: show the exact one, or start
        polling its job."""
        with self._lock:
            self._seq += 1
            seq = self._seq
        if self.changes:
            text = ", ".join(f"{p}={v}" for p, v in self.changes.items())
            self.changed_label.value = f"Changed: {html.escape(text)}"
        else:
            self.changed_label.value = "The base scenario"
        reply = self.explorer.answer(list(self.changes.items()), self.monte_carlo.value)
        if not reply["ok"]:
            self.error, self.state = reply["error"], "error"
            self.error_html.value = (f'<pre class="fz-error" style="color:#b00020">'
                                     f"{html.escape(reply['error'])}</pre>")  # fmt: skip
            if self.answer is not None:  # the last good answer, dimmed
                self.answer_html.value = (f'<div style="opacity:0.45" title="the last valid '
                                          f'change set\'s answer">'
                                          f"{_answer_html(self.answer, None)}</div>")  # fmt: skip
            return
        self.error = None
        warnings = "\n".join(f"warning: {x}" for x in reply.get("warnings") or [])
        self.error_html.value = f"<pre>{html.escape(warnings)}</pre>" if warnings else ""
        if "answer" in reply:
            self.answer, self.state = reply["answer"], "exact"
            self.answer_html.value = _answer_html(reply["answer"], None)
            return
        self.state, self.answer = "running", None
        self.answer_html.value = "<i>Monte Carlo: starting…</i>"
        self._poller = threading.Thread(target=self._poll, args=(reply["job"], seq),
                                        name="explore-widget-poll", daemon=True)  # fmt: skip
        self._poller.start()

    def _poll(self, job: str, seq: int) -> None:
        shown = None
        while seq == self._seq:
            snap = self.explorer.job(job)
            if snap is None or seq != self._seq:
                return
            if snap["state"] == "error" and seq == self._seq:
                self.error, self.state = snap["error"], "error"
                self.error_html.value = (f'<pre class="fz-error" style="color:#b00020">'
                                         f"{html.escape(snap['error'])}</pre>")  # fmt: skip
                return
            answer = snap["answer"]
            with self._lock:  # a newer change set's answer is never overwritten
                if seq != self._seq:
                    return
                if answer is not None and answer.get("trials") != shown:
                    shown = answer.get("trials")
                    self.answer_html.value = _answer_html(answer, snap)
                    self.answer = answer
                elif answer is None:
                    running = f"{snap['running_trials']:,}"
                    self.answer_html.value = f"<i>Monte Carlo: running {running} trials…</i>"
                if snap["state"] != "running":
                    self.state = snap["state"]
                    return
            time.sleep(POLL_SECONDS)

    # -- display ---------------------------------------------------------------------------
    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)

    def __repr__(self) -> str:
        return f"ExplorerWidget({self.info['scenario']!r}, {len(self.changes)} changes)"


def explore_widgets(scenario, max_trials=None, threads=None) -> ExplorerWidget:
    """The widget view of the explorer for ``scenario`` (see :class:`ExplorerWidget`).

    Parameters
    ----------
    scenario : str, path, dict or Scenario
        The base scenario.
    max_trials : int, optional
        Most trials of one Monte Carlo estimate (default 262,144).
    threads : int, optional
        Worker threads (default: all cores).
    """
    cap = DEFAULT_MAX_TRIALS if max_trials is None else max_trials
    return ExplorerWidget(Explorer(scenario, max_trials=cap, threads=threads))
