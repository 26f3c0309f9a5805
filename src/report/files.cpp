// report/files.cpp — the report's files in a run's folder: report.md,
// report.html, findings.md and the findings' charts as standalone SVG
// (model.hpp, write_reports), written alike by `zapbench run` and
// `zapbench report`; and the findings as plain text for the terminal.
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "report/document.hpp"

namespace report {
namespace {

void write(const std::filesystem::path& path, const std::string& text, std::vector<std::string>& written) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) throw std::runtime_error(path.string() + ": cannot write");
  written.push_back(path.string());
}

}  // namespace

std::vector<std::string> write_reports(const Results& r, const std::string& dir) {
  const std::filesystem::path d(dir);
  std::vector<std::string> written;
  write(d / "report.md", markdown(r), written);
  write(d / "report.html", html(r), written);
  const std::vector<doc::Block> glance = doc::glance(r);
  write(d / "findings.md", doc::markdown(glance) + "\n", written);
  for (const doc::Block& b : glance)
    if (b.kind == doc::Block::Kind::glance)
      write(d / (b.chart.id + ".svg"), doc::svg(b.chart, true), written);
  return written;
}

std::string findings_text(const Results& r) {
  const std::vector<doc::Block> glance = doc::glance(r);
  return glance.empty() ? "" : doc::text(glance) + "\n";
}

}  // namespace report
