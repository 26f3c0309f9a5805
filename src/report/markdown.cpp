// report/markdown.cpp — report.md: renders the report's blocks (document.cpp)
// as GitHub-flavoured Markdown. Charts are HTML-only; their numbers are in the
// tables. Text from the model is escaped so a name cannot become markup.
#include <algorithm>
#include <string_view>

#include "report/document.hpp"

namespace report {
namespace {

using doc::Block;
using doc::Text;

// Backslash-escapes what Markdown (and a table cell) would read as markup.
std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '\n') {
      out += ' ';
      continue;
    }
    if (std::string_view("\\`*_|<>[]").find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

std::size_t longest_backtick_run(const std::string& s) {
  std::size_t best = 0, run = 0;
  for (char c : s) best = std::max(best, run = c == '`' ? run + 1 : 0);
  return best;
}

std::string inline_code(const std::string& s) {
  if (s.empty()) return "";
  std::string flat = s;
  std::replace(flat.begin(), flat.end(), '\n', ' ');
  const std::string fence(longest_backtick_run(flat) + 1, '`');
  // A code span that starts or ends with a backtick needs a space inside the fence.
  const std::string pad = flat.front() == '`' || flat.back() == '`' ? " " : "";
  // A '|' would still end a table cell inside a code span (GFM), so escape it.
  std::string body;
  for (char c : flat) body += c == '|' ? std::string("\\|") : std::string(1, c);
  return fence + pad + body + pad + fence;
}

std::string runs(const doc::Runs& rs) {
  std::string out;
  for (const Text& t : rs) {
    switch (t.style) {
      case Text::Style::plain:
        out += escape(t.s);
        break;
      case Text::Style::code:
        out += inline_code(t.s);
        break;
      case Text::Style::strong:
        out += t.s.empty() ? "" : "**" + escape(t.s) + "**";
        break;
      case Text::Style::link:
        out += "[" + escape(t.s) + "](#" + t.anchor + ")";
        break;
    }
  }
  return out;
}

std::string table(const doc::Table& t) {
  std::string out = "|";
  for (const std::string& h : t.header) out.append(" ").append(escape(h)).append(" |");
  out += "\n|";
  for (std::size_t i = 0; i < t.header.size(); ++i)
    out += i < t.align.size() && t.align[i] == 'r' ? "---:|" : "---|";
  out += "\n";
  for (const auto& row : t.rows) {
    out += "|";
    for (const Text& cell : row) out.append(" ").append(runs({cell})).append(" |");
    out += "\n";
  }
  return out;
}

}  // namespace

std::string doc::markdown(const std::vector<Block>& blocks) {
  std::string out;
  for (const Block& b : blocks) {
    switch (b.kind) {
      case Block::Kind::heading:
        // An explicit anchor: generated heading ids differ between renderers.
        if (!b.anchor.empty()) out += "<a id=\"" + b.anchor + "\"></a>\n\n";
        out += std::string(std::size_t(b.level), '#') + " " + runs(b.runs) + "\n\n";
        break;
      case Block::Kind::paragraph:
        out += runs(b.runs) + "\n\n";
        break;
      case Block::Kind::bullets:
        for (const doc::Runs& item : b.items) out += "- " + runs(item) + "\n";
        out += "\n";
        break;
      case Block::Kind::table:
      case Block::Kind::glance:  // its chart is HTML only
        out += table(b.table) + "\n";
        break;
      case Block::Kind::code: {
        const std::string fence(std::max<std::size_t>(3, longest_backtick_run(b.text) + 1), '`');
        if (!b.summary.empty()) out += escape(b.summary) + ":\n\n";
        out += fence + "\n" + b.text + "\n" + fence + "\n\n";
        break;
      }
      case Block::Kind::chart:
        break;  // HTML only
    }
  }
  while (out.size() > 1 && out.ends_with("\n\n")) out.pop_back();
  return out;
}

std::string markdown(const Results& r) { return doc::markdown(doc::build(r)); }

}  // namespace report
