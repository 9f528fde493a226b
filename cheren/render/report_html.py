"""One self-contained HTML page for an analysis: the map with the threat overlays, the report,
and the charts of the play-outs, all inline (no files beside it, nothing fetched)."""

from __future__ import annotations

import html
import re

from cheren.render.svg import position_svg
from cheren.study.analysis.evaluate import Evaluation
from cheren.study.analysis.report import AnalysisReport

STYLE = """
body { font-family: "DejaVu Sans", Arial, sans-serif; color: #2d2418; background: #f4efe1; margin: 24px auto;
  max-width: 1100px; line-height: 1.4; }
h1 { font-family: serif; letter-spacing: 1px; } h2 { border-bottom: 1px solid #b9a57e; }
table { border-collapse: collapse; margin: 8px 0; font-size: 13px; }
td, th { border: 1px solid #d8c9a6; padding: 3px 6px; text-align: left; vertical-align: top; }
th { background: #e8dec3; } .map svg, .chart svg { max-width: 100%; height: auto; }
.note { color: #6e5a3c; font-size: 13px; }
"""


def markdown_to_html(text: str) -> str:
    """The small Markdown the reports write: headings, tables, lists, bold and italics."""
    out: list[str] = []
    table: list[list[str]] = []
    in_list = 0

    def inline(s: str) -> str:
        s = html.escape(s)
        s = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", s)
        return re.sub(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])", r"<i>\1</i>", s)

    def flush_table() -> None:
        if not table:
            return
        head, *rows = table
        out.append("<table><tr>" + "".join(f"<th>{inline(c)}</th>" for c in head) + "</tr>")
        out.extend("<tr>" + "".join(f"<td>{inline(c)}</td>" for c in r) + "</tr>" for r in rows)
        out.append("</table>")
        table.clear()

    def close_lists(level: int = 0) -> None:
        nonlocal in_list
        while in_list > level:
            out.append("</ul>")
            in_list -= 1

    for line in text.splitlines():
        if line.startswith("|"):
            close_lists()
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if not all(re.fullmatch(r"-+", c) for c in cells):
                table.append(cells)
            continue
        flush_table()
        m = re.match(r"^( *)- (.*)$", line)
        if m:
            level = len(m.group(1)) // 2 + 1
            while in_list < level:
                out.append("<ul>")
                in_list += 1
            close_lists(level)
            out.append(f"<li>{inline(m.group(2))}</li>")
            continue
        close_lists()
        if line.startswith("#"):
            n = len(line) - len(line.lstrip("#"))
            out.append(f"<h{n + 1}>{inline(line[n:].strip())}</h{n + 1}>")
        elif line.strip():
            out.append(f"<p>{inline(line)}</p>")
    flush_table()
    close_lists()
    return "\n".join(out)


def report_page(title: str, report: AnalysisReport, evaluation: Evaluation | None = None) -> str:
    from cheren.study.overlays import threat_overlays

    p = report.position
    parts = [
        "<!DOCTYPE html>",
        "<html lang='en'><head><meta charset='utf-8'>",
        f"<title>{html.escape(title)}</title><style>{STYLE}</style></head><body>",
        f"<h1>{html.escape(title)}</h1>",
        "<p class='note'>Made by cheren from the engine's own rules: the odds are exact, the threats and supply "
        "cuts come from the movement and supply rules, and the play-outs are games played through the legality "
        "gate. The map and counters are the project's reconstruction.</p>",
        f"<div class='map'>{position_svg(p, threat_overlays(report.threats))}</div>",
        markdown_to_html(report.explain()),
    ]
    if evaluation is not None and evaluation.results:
        from cheren.study.analysis.charts import to_svg, vp_histogram, vp_over_turns

        parts += [
            "<h2>Where the position leads: play-outs</h2>",
            markdown_to_html(evaluation.explain()),
            f"<div class='chart'>{to_svg(vp_histogram(evaluation))}</div>",
            f"<div class='chart'>{to_svg(vp_over_turns(evaluation))}</div>",
        ]
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"
