// The campaign dashboard: HTML with hand-written inline SVG plots.
#include "reports/Dashboard.h"

#include "core/Format.h"
#include "core/Quote.h"
#include "reports/CiOutputs.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <map>
#include <set>
#include <sstream>

namespace cc {

namespace {

std::string esc(const std::string &s) { return xmlText(s); }

std::string num(double v, const char *f = "%.4g") { return formatDouble(f, v); }

// An axis tick: three digits with a k or M suffix, short enough for the
// margin ("4.68k", not "4.68e+03").
std::string tick(double v) {
  double a = std::fabs(v);
  if (a >= 1e6)
    return num(v / 1e6, "%.3g") + "M";
  if (a >= 1e3)
    return num(v / 1e3, "%.3g") + "k";
  return num(v, "%.3g");
}

std::string utc(double unixSeconds) {
  if (unixSeconds <= 0)
    return "-";
  std::time_t t = std::time_t(unixSeconds);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", &tm);
  return buf;
}

// A line chart of step series over a shared x axis (seconds since start).
struct Series {
  std::string name, color;
  std::vector<std::pair<double, double>> points; // (x, y), x ascending
};

constexpr int kW = 460, kH = 220, kL = 48, kR = 12, kT = 12, kB = 34;

std::string noData(const std::string &why) {
  return "<p class=\"nodata\">" + esc(why) + "</p>";
}

// Steps: a step line through the points. Bars: one bar per point, centred
// on it, `barWidth` wide in x units (the x axis then ends at xEnd).
enum class Style { Steps, Bars };

std::string lineChart(const std::vector<Series> &series,
                      const std::string &xLabel, const std::string &yLabel,
                      Style style, double barWidth = 0, double xEnd = 0) {
  double xMax = xEnd, yMax = 0;
  for (const Series &s : series)
    for (auto [x, y] : s.points)
      xMax = std::max(xMax, x), yMax = std::max(yMax, y);
  xMax = xMax > 0 ? xMax : 1;
  yMax = yMax > 0 ? yMax * 1.05 : 1;
  auto px = [&](double x) { return kL + (kW - kL - kR) * x / xMax; };
  auto py = [&](double y) { return kH - kB - (kH - kT - kB) * y / yMax; };
  std::ostringstream os;
  os << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << kW
     << "\" height=\"" << kH << "\" viewBox=\"0 0 " << kW << " " << kH
     << "\" role=\"img\">";
  for (int i = 0; i <= 4; ++i) { // grid and y ticks
    double y = yMax * i / 4;
    os << "<line x1=\"" << kL << "\" x2=\"" << kW - kR << "\" y1=\"" << py(y)
       << "\" y2=\"" << py(y) << "\" class=\"grid\"/><text x=\"" << kL - 4
       << "\" y=\"" << py(y) + 4 << "\" text-anchor=\"end\">" << tick(y)
       << "</text>";
    double x = xMax * i / 4;
    os << "<text x=\"" << px(x) << "\" y=\"" << kH - kB + 14
       << "\" text-anchor=\"middle\">" << tick(x) << "</text>";
  }
  os << "<text x=\"" << (kL + kW - kR) / 2 << "\" y=\"" << kH - 4
     << "\" text-anchor=\"middle\">" << esc(xLabel) << "</text>";
  os << "<text x=\"12\" y=\"" << (kT + kH - kB) / 2
     << "\" text-anchor=\"middle\" transform=\"rotate(-90 12 "
     << (kT + kH - kB) / 2 << ")\">" << esc(yLabel) << "</text>";
  int legend = 0;
  for (const Series &s : series) {
    if (style == Style::Bars)
      for (auto [x, y] : s.points)
        os << "<rect x=\"" << num(px(x - barWidth / 2) + 1, "%.1f") << "\" y=\""
           << num(py(y), "%.1f") << "\" width=\""
           << num(std::max(px(barWidth) - kL - 2, 1.0), "%.1f")
           << "\" height=\"" << num(py(0) - py(y), "%.1f") << "\" fill=\""
           << s.color << "\"><title>" << num(y, "%.3g") << "</title></rect>";
    std::string path; // a step line: across at the old y, then up
    for (size_t i = 0; style == Style::Steps && i < s.points.size(); ++i) {
      auto [x, y] = s.points[i];
      std::string at = num(px(x), "%.1f");
      if (i == 0)
        path += "M" + at + "," + num(py(y), "%.1f");
      else
        path += " L" + at + "," + num(py(s.points[i - 1].second), "%.1f") +
                " L" + at + "," + num(py(y), "%.1f");
    }
    if (!path.empty())
      os << "<path d=\"" << path << "\" fill=\"none\" stroke=\"" << s.color
         << "\" stroke-width=\"2\"/>";
    // On a light backdrop: the legend sits inside the plot, over the data.
    os << "<rect x=\"" << kL + 6 << "\" y=\"" << kT + 2 + 14 * legend
       << "\" width=\"" << 20 + 7 * s.name.size()
       << "\" height=\"14\" fill=\"#fff\" fill-opacity=\"0.85\"/>";
    os << "<rect x=\"" << kL + 8 << "\" y=\"" << kT + 4 + 14 * legend
       << "\" width=\"10\" height=\"10\" fill=\"" << s.color << "\"/><text x=\""
       << kL + 22 << "\" y=\"" << kT + 13 + 14 * legend << "\">" << esc(s.name)
       << "</text>";
    ++legend;
  }
  os << "</svg>";
  return os.str();
}

std::string casesOverTime(const DashboardData &d, double start) {
  if (d.caseTimes.empty())
    return noData("No cases recorded.");
  Series s{"cases", "#1f6fb2", {{0, 0}}};
  for (size_t i = 0; i < d.caseTimes.size(); ++i)
    s.points.push_back({d.caseTimes[i] - start, double(i + 1)});
  return lineChart({s}, "seconds since the first case", "cases", Style::Steps);
}

std::string casesPerSecond(const DashboardData &d, double start) {
  if (d.caseTimes.size() < 2)
    return noData("Too few cases for a rate.");
  double span = std::max(d.caseTimes.back() - start, 1e-3);
  int buckets = int(std::clamp<size_t>(d.caseTimes.size() / 2, 1, 30));
  double width = span / buckets;
  std::vector<int> count(size_t(buckets), 0);
  for (double t : d.caseTimes)
    ++count[size_t(std::min(buckets - 1, int((t - start) / width)))];
  Series s{"cases/s", "#2a9d5c", {}};
  for (int b = 0; b < buckets; ++b)
    s.points.push_back({(b + 0.5) * width, count[size_t(b)] / width});
  return lineChart({s}, "seconds since the first case", "cases per second",
                   Style::Bars, width, span);
}

std::string findingsOverTime(const DashboardData &d, double start) {
  if (d.findings.empty())
    return noData("No findings: the campaign found nothing.");
  std::vector<std::pair<double, bool>> times;
  for (const DashboardData::Finding &f : d.findings)
    times.push_back({std::max(f.firstSeen - start, 0.0), f.known});
  std::sort(times.begin(), times.end());
  Series fresh{"new", "#c0392b", {{0, 0}}}, known{"known", "#7f8c8d", {{0, 0}}};
  int n = 0, k = 0;
  for (auto [t, isKnown] : times) {
    (isKnown ? known : fresh)
        .points.push_back({t, double(isKnown ? ++k : ++n)});
  }
  double end = d.caseTimes.empty()
                   ? times.back().first
                   : std::max(times.back().first, d.caseTimes.back() - start);
  fresh.points.push_back({end, double(n)});
  known.points.push_back({end, double(k)});
  return lineChart({fresh, known}, "seconds since the first case",
                   "distinct signatures", Style::Steps);
}

// Distinct passes that changed the IR and rewrite patterns that fired, by
// when each was first seen: whether the campaign still reaches new
// compiler code.
std::string passCoverageOverTime(const DashboardData &d, double start) {
  Series passes{"passes", "#8e44ad", {{0, 0}}};
  Series patterns{"patterns", "#e67e22", {{0, 0}}};
  std::vector<std::pair<double, bool>> times; // (x, is a pattern)
  for (const DashboardData::PassCoverage &p : d.passCoverage)
    if (p.firstSeen > 0 && (p.kind == "pass" || p.kind == "pattern"))
      times.push_back(
          {std::max(p.firstSeen - start, 0.0), p.kind == "pattern"});
  if (times.empty())
    return noData(d.passCoverage.empty()
                      ? "No pass or pattern coverage recorded."
                      : "The pass and pattern coverage carries no dates.");
  std::sort(times.begin(), times.end());
  int np = 0, nr = 0;
  for (auto [t, isPattern] : times)
    (isPattern ? patterns : passes)
        .points.push_back({t, double(isPattern ? ++nr : ++np)});
  double end = times.back().first;
  if (!d.caseTimes.empty())
    end = std::max(end, d.caseTimes.back() - start);
  passes.points.push_back({end, double(np)});
  patterns.points.push_back({end, double(nr)});
  return lineChart({patterns, passes}, "seconds since the first case",
                   "distinct passes / patterns", Style::Steps);
}

std::string heatMap(const DashboardData &d) {
  if (d.coverage.empty())
    return noData("No op coverage recorded.");
  std::vector<std::string> ops;
  std::set<std::string> dtypeSet;
  std::map<std::pair<std::string, std::string>, int64_t> cell;
  int64_t maxCount = 1;
  for (const DashboardData::Coverage &c : d.coverage) {
    if (ops.empty() || ops.back() != c.op)
      if (std::find(ops.begin(), ops.end(), c.op) == ops.end())
        ops.push_back(c.op);
    dtypeSet.insert(c.dtype);
    cell[{c.op, c.dtype}] += c.count;
    maxCount = std::max(maxCount, cell[{c.op, c.dtype}]);
  }
  std::sort(ops.begin(), ops.end());
  const std::vector<std::string> order = {"i1",  "i8",   "i16", "i32", "i64",
                                          "f16", "bf16", "f32", "f64"};
  std::vector<std::string> dtypes;
  for (const std::string &t : order)
    if (dtypeSet.count(t))
      dtypes.push_back(t);
  for (const std::string &t : dtypeSet)
    if (std::find(order.begin(), order.end(), t) == order.end())
      dtypes.push_back(t);
  const int cw = 46, ch = 16, left = 130, top = 22;
  int w = left + cw * int(dtypes.size()) + 10,
      h = top + ch * int(ops.size()) + 6;
  std::ostringstream os;
  os << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << w
     << "\" height=\"" << h << "\" viewBox=\"0 0 " << w << " " << h
     << "\" role=\"img\">";
  for (size_t j = 0; j < dtypes.size(); ++j)
    os << "<text x=\"" << left + cw * int(j) + cw / 2 << "\" y=\"14\" "
       << "text-anchor=\"middle\">" << esc(dtypes[j]) << "</text>";
  double logMax = std::log1p(double(maxCount));
  for (size_t i = 0; i < ops.size(); ++i) {
    int y = top + ch * int(i);
    os << "<text x=\"" << left - 6 << "\" y=\"" << y + 12
       << "\" text-anchor=\"end\">" << esc(ops[i]) << "</text>";
    for (size_t j = 0; j < dtypes.size(); ++j) {
      auto it = cell.find({ops[i], dtypes[j]});
      int64_t n = it == cell.end() ? 0 : it->second;
      // Light to dark blue on a log scale; untested pairs stay grey.
      std::string fill = "#f2f2f2";
      if (n > 0) {
        double a = std::log1p(double(n)) / logMax;
        int r = int(222 - a * 190), g = int(235 - a * 140),
            b = int(247 - a * 60);
        char buf[16];
        std::snprintf(buf, sizeof buf, "#%02x%02x%02x", r, g, b);
        fill = buf;
      }
      os << "<rect x=\"" << left + cw * int(j) << "\" y=\"" << y
         << "\" width=\"" << cw - 2 << "\" height=\"" << ch - 2 << "\" fill=\""
         << fill << "\"><title>" << esc(ops[i]) << " x " << esc(dtypes[j])
         << ": " << n << "</title></rect>";
    }
  }
  os << "</svg>";
  return os.str();
}

std::string passTable(const DashboardData &d) {
  if (d.passCoverage.empty())
    return noData("No pass or pattern coverage recorded for this campaign "
                  "(the store's pass_coverage table is empty).");
  int64_t maxCount = 1;
  for (const DashboardData::PassCoverage &p : d.passCoverage)
    maxCount = std::max(maxCount, p.count);
  std::ostringstream os;
  os << "<table><tr><th>kind</th><th>name</th><th>count</th><th></th>"
        "<th>first case</th></tr>";
  for (const DashboardData::PassCoverage &p : d.passCoverage)
    os << "<tr><td>" << esc(p.kind) << "</td><td><code>" << esc(p.name)
       << "</code></td><td class=\"n\">" << p.count
       << "</td><td><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"120\" "
          "height=\"10\"><rect width=\""
       << num(120.0 * double(p.count) / double(maxCount), "%.1f")
       << "\" height=\"10\" fill=\"#1f6fb2\"/></svg></td><td class=\"n\">"
       << p.firstCase << "</td></tr>";
  os << "</table>";
  return os.str();
}

// Root causes, all and new; each finding is its own when the campaign did
// not group them.
std::pair<size_t, size_t> rootCounts(const DashboardData &d) {
  if (d.rootCauses > 0 || d.findings.empty())
    return {d.rootCauses, d.newRootCauses};
  size_t fresh = size_t(std::count_if(d.findings.begin(), d.findings.end(),
                                      [](const auto &f) { return !f.known; }));
  return {d.findings.size(), fresh};
}

std::string findingsTable(const DashboardData &d) {
  if (d.findings.empty())
    return noData("No findings.");
  std::ostringstream os;
  os << "<table><tr><th>status</th><th>root cause</th><th>kind</th>"
        "<th>signature</th>"
        "<th>cases</th><th>first seen (UTC)</th><th>culprit</th>"
        "<th>reduced</th><th>bundle</th></tr>";
  for (const DashboardData::Finding &f : d.findings) {
    os << "<tr><td><span class=\"" << (f.known ? "known" : "new") << "\">"
       << (f.known ? "known" : "NEW") << "</span></td><td>"
       << (f.rootCause.empty() ? "-" : esc(f.rootCause)) << "</td><td>"
       << esc(std::string(kindName(f.signature.kind))) << "</td><td><code>"
       << esc(f.signature.str()) << "</code><div class=\"msg\">"
       << esc(f.message) << "</div></td><td class=\"n\">" << f.count
       << "</td><td>" << utc(f.firstSeen) << "</td><td>"
       << (f.culprit.empty() ? "-" : "<code>" + esc(f.culprit) + "</code>")
       << "</td><td>"
       << (f.reducedOps >= 0 ? std::to_string(f.reducedOps) + " ops" : "-")
       << "</td><td>"
       << (f.bundle.empty() ? "-"
                            : "<a href=\"" + esc(f.bundle) + "/README.md\">" +
                                  "bundle</a> (<a href=\"" + esc(f.bundle) +
                                  "/repro.sh\">repro.sh</a>)")
       << "</td></tr>";
  }
  os << "</table>";
  return os.str();
}

} // namespace

std::string dashboardHtml(const DashboardData &d) {
  double start = d.caseTimes.empty() ? 0 : d.caseTimes.front();
  double span = d.caseTimes.size() > 1 ? d.caseTimes.back() - start : 0;
  std::set<std::string> pairs;
  for (const DashboardData::Coverage &c : d.coverage)
    pairs.insert(c.op + "/" + c.dtype);
  std::ostringstream os;
  os << R"(<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>)"
     << esc(d.title) << R"(</title>
<script>
// Records script errors and failed resources into the page, so that a
// headless browser's DOM dump shows whether the page loaded cleanly.
window.addEventListener("error", function (e) {
  var el = document.documentElement;
  el.setAttribute("data-errors", (el.getAttribute("data-errors") || "") +
    (e.message || ("failed to load " + (e.target && (e.target.src || e.target.href)))) + ";");
}, true);
</script>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 24px; color: #222; }
h1 { font-size: 22px; } h2 { font-size: 17px; margin-top: 28px; }
.cards { display: flex; gap: 12px; flex-wrap: wrap; }
.card { border: 1px solid #ddd; border-radius: 6px; padding: 8px 14px; min-width: 110px; }
.card b { display: block; font-size: 20px; }
.plots { display: flex; gap: 18px; flex-wrap: wrap; }
.plot { border: 1px solid #eee; padding: 6px; }
svg text { font: 10px sans-serif; fill: #444; }
svg .grid { stroke: #e6e6e6; }
table { border-collapse: collapse; }
td, th { border-bottom: 1px solid #eee; padding: 3px 8px; text-align: left; vertical-align: top; }
td.n { text-align: right; }
.new { color: #fff; background: #c0392b; padding: 1px 5px; border-radius: 3px; }
.known { color: #fff; background: #7f8c8d; padding: 1px 5px; border-radius: 3px; }
.msg { color: #666; font-size: 12px; max-width: 640px; }
.nodata { color: #888; font-style: italic; }
code { font-size: 12px; word-break: break-all; }
</style></head><body>
<h1>)"
     << esc(d.title) << "</h1>\n<p><code>" << esc(d.identity) << "</code></p>\n"
     << "<div class=\"cards\"><div class=\"card\"><b>" << d.totalCases
     << "</b>cases</div><div class=\"card\"><b>" << d.skippedCases
     << "</b>skipped</div><div class=\"card\"><b>"
     << (span > 0 ? num(double(d.caseTimes.size()) / span, "%.3g") : "-")
     << "</b>cases/s</div><div class=\"card\"><b>" << rootCounts(d).first
     << "</b>root causes</div><div class=\"card\"><b>" << rootCounts(d).second
     << "</b>new</div><div class=\"card\"><b>" << d.findings.size()
     << "</b>distinct signatures</div><div class=\"card\"><b>" << pairs.size()
     << "</b>op x dtype pairs</div><div class=\"card\"><b>"
     << d.passCoverage.size() << "</b>passes/patterns</div></div>\n"
     << "<h2>Progress</h2><div class=\"plots\"><div class=\"plot\"><b>Cases "
        "over time</b><br>"
     << casesOverTime(d, start)
     << "</div><div class=\"plot\"><b>Cases per second</b><br>"
     << casesPerSecond(d, start)
     << "</div><div class=\"plot\"><b>Findings over time (new versus "
        "known)</b><br>"
     << findingsOverTime(d, start)
     << "</div><div class=\"plot\"><b>Pass and pattern coverage over "
        "time</b><br>"
     << passCoverageOverTime(d, start) << "</div></div>\n"
     << "<h2>Findings</h2>" << findingsTable(d) << "\n"
     << "<h2>Op &times; dtype coverage</h2>" << heatMap(d) << "\n"
     << "<h2>Pass and pattern coverage</h2>" << passTable(d) << "\n"
     << "<p class=\"msg\">Written by crosscheck report. Cases: " << utc(start)
     << " to " << utc(d.caseTimes.empty() ? 0 : d.caseTimes.back())
     << " UTC.</p>\n"
     << "<script>document.documentElement.setAttribute(\"data-loaded\", "
        "\"ok\");</script>\n</body></html>\n";
  return os.str();
}

namespace {
// Code in a Markdown table cell: a '|' would end the cell (a signature's
// separators read better as '/').
std::string tableCode(std::string s) {
  std::replace(s.begin(), s.end(), '|', '/');
  return markdownCode(s);
}
} // namespace

std::string summaryMarkdown(const DashboardData &d) {
  std::set<std::string> pairs;
  for (const DashboardData::Coverage &c : d.coverage)
    pairs.insert(c.op + "/" + c.dtype);
  std::ostringstream os;
  auto [roots, fresh] = rootCounts(d);
  os << "## " << markdownText(d.title) << "\n\n"
     << (fresh ? "**" + std::to_string(fresh) + " new root cause(s)**"
               : std::string("No new root causes"))
     << ", " << roots - fresh << " known (" << d.findings.size()
     << " distinct signatures); " << d.totalCases << " cases ("
     << d.skippedCases << " skipped), " << pairs.size() << " op x dtype pairs, "
     << d.passCoverage.size() << " passes/patterns covered.\n\n";
  std::vector<Signature> signatures;
  for (const DashboardData::Finding &f : d.findings)
    signatures.push_back(f.signature);
  CompilerLegend legend(signatures);
  if (!d.findings.empty()) {
    os << "| status | root cause | kind | cases | signature | culprit | "
          "bundle |\n|---|---|---|---|---|---|---|\n";
    for (const DashboardData::Finding &f : d.findings)
      os << "| " << (f.known ? "known" : "**new**") << " | "
         << (f.rootCause.empty() ? "-" : markdownText(f.rootCause)) << " | "
         << kindName(f.signature.kind) << " | " << f.count << " | "
         << tableCode(legend.shorten(f.signature.str())) << " | "
         << (f.culprit.empty() ? "-" : tableCode(f.culprit)) << " | "
         << (f.bundle.empty() ? "-" : tableCode("report/" + f.bundle))
         << " |\n";
    os << "\n";
  }
  if (!legend.empty()) {
    os << "Compilers:\n\n";
    for (size_t i = 0; i < legend.listed().size(); ++i)
      os << "- [" << i + 1 << "] " << markdownCode(legend.listed()[i]) << "\n";
    os << "\n";
  }
  os << "Dashboard: `report/index.html`.\n";
  return os.str();
}

} // namespace cc
