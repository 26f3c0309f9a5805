// report/text.cpp — the report's blocks (document.cpp) as plain text for a
// terminal: what `zapbench run` ends with (the findings at a glance), and the
// aligned table `zapbench compare` prints. Charts are left out; links are
// their text.
#include <algorithm>

#include "report/document.hpp"

namespace report::doc {
namespace {

std::string flat(const Runs& rs) {
  std::string out;
  for (const Text& t : rs) out += t.s;
  return out;
}

// Words filled into lines of at most `width` displayed characters.
std::string wrapped(const std::string& s, std::size_t width, const std::string& indent) {
  std::string out, line;
  std::size_t at = 0;
  while (at < s.size()) {
    const std::size_t space = s.find(' ', at);
    const std::string word = s.substr(at, space == std::string::npos ? std::string::npos : space - at);
    at = space == std::string::npos ? s.size() : space + 1;
    if (word.empty()) continue;
    if (!line.empty() && display_width(line) + 1 + display_width(word) > width) {
      out += line + "\n";
      line = indent;
    }
    line += (line.empty() || line == indent ? "" : " ") + word;
  }
  return out + line + "\n";
}

std::string rule_line(std::size_t width) {
  std::string s;
  for (std::size_t i = 0; i < width; ++i) s += "─";
  return s;
}

}  // namespace

std::string text_table(const Table& t, bool rule) {
  std::vector<std::vector<std::string>> rows{t.header};
  for (const auto& row : t.rows) {
    std::vector<std::string> cells;
    for (const Text& cell : row) cells.push_back(cell.s);
    rows.push_back(std::move(cells));
  }
  std::vector<std::size_t> width;
  for (const auto& row : rows) {
    if (width.size() < row.size()) width.resize(row.size(), 0);
    for (std::size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], display_width(row[i]));
  }
  std::string out;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    std::string line;
    for (std::size_t i = 0; i < rows[r].size(); ++i) {
      const std::string pad(width[i] - display_width(rows[r][i]), ' ');
      line += i < t.align.size() && t.align[i] == 'r' ? pad + rows[r][i] : rows[r][i] + pad;
      if (i + 1 < rows[r].size()) line += "  ";
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
    if (r == 0 && rule) {
      std::size_t total = 0;
      for (std::size_t w : width) total += w + 2;
      out += rule_line(total > 2 ? total - 2 : total) + "\n";
    }
  }
  return out;
}

std::string text(const std::vector<Block>& blocks) {
  constexpr std::size_t kWidth = 100;
  std::string out;
  for (const Block& b : blocks) {
    switch (b.kind) {
      case Block::Kind::heading: {
        const std::string h = flat(b.runs);
        out += h + "\n" + rule_line(display_width(h)) + "\n\n";
        break;
      }
      case Block::Kind::paragraph:
        out += wrapped(flat(b.runs), kWidth, "") + "\n";
        break;
      case Block::Kind::bullets:
        for (const Runs& item : b.items) out += wrapped("- " + flat(item), kWidth, "  ");
        out += "\n";
        break;
      case Block::Kind::table:
      case Block::Kind::glance:
        out += text_table(b.table, true) + "\n";
        break;
      case Block::Kind::code:
        out += (b.summary.empty() ? "" : b.summary + ":\n") + b.text + "\n\n";
        break;
      case Block::Kind::chart:
        break;
    }
  }
  while (out.size() > 1 && out.ends_with("\n\n")) out.pop_back();
  return out;
}

}  // namespace report::doc
