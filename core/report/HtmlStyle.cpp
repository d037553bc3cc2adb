// The HTML report's style sheet (report/HtmlParts.h): inline in the page, no web fonts, no imports.
#include "report/HtmlParts.h"

namespace sl::html {

const char* reportCss() {
    return R"CSS(
:root{--fg:#212529;--muted:#6c757d;--line:#e9ecef;--bg:#f8f9fa;--accent:#1c7ed6}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:14px/1.5 -apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,"Helvetica Neue",Arial,"Noto Sans","Liberation Sans",sans-serif;-webkit-font-smoothing:antialiased}
main{max-width:1080px;margin:0 auto;padding:28px 32px 48px}
header{background:#fff;border:1px solid var(--line);border-radius:10px;padding:22px 26px 16px;margin-bottom:18px}
.brand{font-size:12px;font-weight:600;letter-spacing:.12em;text-transform:uppercase;color:var(--accent)}
h1{font-size:26px;font-weight:650;margin:2px 0 14px;letter-spacing:-.01em}
h2{font-size:18px;font-weight:620;margin:0 0 6px}
dl.meta{display:grid;grid-template-columns:80px 1fr;gap:6px 14px;margin:0}
dl.meta dt{color:var(--muted);font-size:12px;text-transform:uppercase;letter-spacing:.06em;padding-top:3px}
dl.meta dd{margin:0}
code,.path{font:12.5px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace}
.path{display:block;word-break:break-all;color:#343a40}
.chip{display:inline-block;background:#fff4e6;border:1px solid #ffd8a8;color:#a64b00;border-radius:999px;padding:1px 10px;margin:0 6px 4px 0;font:12.5px ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace}
.chip.replay{background:#ebfbee;border-color:#b2f2bb;color:#2b8a3e;font-family:inherit}
details{margin-top:4px;font-size:13px}
summary{cursor:pointer;color:var(--muted)}
table.knobs{margin-top:6px;border-collapse:collapse}
table.knobs th{font:12.5px ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;text-align:left;font-weight:400;padding:1px 18px 1px 0;color:#495057}
table.knobs td{font:12.5px ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;padding:1px 0}
table.knobs tr.changed th,table.knobs tr.changed td{color:#a64b00;font-weight:600}
section.cards{display:grid;grid-template-columns:repeat(5,1fr);gap:12px;margin-bottom:18px;background:none;border:0;padding:0}
.card{background:#fff;border:1px solid var(--line);border-radius:10px;padding:12px 14px}
.card .label{font-size:11.5px;text-transform:uppercase;letter-spacing:.06em;color:var(--muted)}
.card .value{font-size:22px;font-weight:620;margin:2px 0;font-variant-numeric:tabular-nums;white-space:nowrap}
.card.accent .value{color:var(--accent)}
.card.good .value{color:#2b8a3e}
.card.bad .value{color:#c92a2a}
table.wide{width:100%}
.card .note{font-size:12px;color:var(--muted);line-height:1.35}
section{background:#fff;border:1px solid var(--line);border-radius:10px;padding:20px 26px;margin-bottom:18px}
p.lead{color:#495057;margin:0 0 12px;max-width:820px}
p.foot{color:var(--muted);font-size:12px;margin:8px 0 0}
.legend{display:flex;flex-wrap:wrap;gap:4px 18px;margin:4px 0 8px;font-size:13px}
.key{display:inline-flex;align-items:center;gap:6px}
.key i,.sw{display:inline-block;width:12px;height:12px;border-radius:3px}
.sw{margin-right:8px;vertical-align:-1px}
svg.chart{display:block;width:100%;height:auto;margin:4px 0 14px}
svg text{font-family:inherit}
svg .label{font-size:12px;fill:#343a40}
svg .tag{font-size:10px;fill:#868e96}
svg .axis{font-size:10.5px;fill:#868e96}
svg .inbar{font-size:12px;fill:#fff;font-weight:600}
svg .grid{stroke:#f1f3f5;stroke-width:1}
.scroll{overflow-x:auto}
table.num{border-collapse:collapse;font-variant-numeric:tabular-nums;font-size:13px}
table.num th,table.num td{padding:4px 10px;border-bottom:1px solid var(--line)}
table.num td{text-align:right;white-space:nowrap}
table.num thead th{font-size:12px;font-weight:600;color:var(--muted);text-align:right;border-bottom:2px solid #dee2e6;white-space:nowrap}
table.num thead th:first-child,table.num thead th.l{text-align:left}
table.num tbody th{text-align:left;font-weight:500}
table.num td.src{text-align:left;color:var(--muted)}
table.num tbody.rank tr:last-child td,table.num tbody.rank tr:last-child th{border-bottom:1px solid #dee2e6}
table.num th.rk{vertical-align:middle;font-weight:600}
table.num tr.total th,table.num tr.total td{font-weight:650;border-top:2px solid #dee2e6}
table.num th.name{max-width:380px;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;font:12px ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace}
.cols{display:flex;flex-wrap:wrap;gap:18px 36px;align-items:flex-start}
.warnings{margin:6px 0 0;padding-left:18px;font-size:13px;color:#495057}
.count{font-size:12px;background:#fff3bf;color:#8a6d00;border-radius:999px;padding:1px 8px;vertical-align:3px}
.muted{color:var(--muted)}
footer{color:var(--muted);font-size:12px;text-align:center}
figure.timeline{margin:0 0 16px}
figure.timeline svg{display:block;width:100%;height:auto;border:1px solid var(--line)}
figure.timeline figcaption{font-size:13px;color:#495057;margin-bottom:6px}
section.headline{border-left:5px solid var(--accent)}
section.headline p{margin:0;font-size:17px}
section.headline p.limit{margin-top:6px;font-size:14px;color:#495057}
@media (max-width:900px){section.cards{grid-template-columns:repeat(2,1fr)}main{padding:16px}}
@media print{body{background:#fff}section,header,.card{break-inside:avoid}}
)CSS";
}

} // namespace sl::html
