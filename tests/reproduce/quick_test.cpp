// What a `reproduce --quick` run checks (issue 24): rows marked `quick = true` against the
// published value, rows with `quick_value` against the quick run's own reference, the rest
// "n/a (quick)" and not counted; a full run compares every row with the paper.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "allocsim/sweep/reproduce/reproduce.hpp"
#include "allocsim/util/error.hpp"

namespace allocsim::sweep {
namespace {

std::string write_published(const std::string& name, const std::string& values) {
  const auto path = std::filesystem::temp_directory_path() / (name + ".toml");
  std::ofstream(path) << "study = \"" << name << "\"\npaper = \"p\"\n" << values;
  return path.string();
}

const char* kThreeRows = R"(
[[value]]
key = "trend"
what = "a trend the quick run shows too"
fact = true
quick = true
source = "Fig. 1"
page = "Section 1"

[[value]]
key = "number"
what = "a number of the full run, with a reference value of the quick run"
value = 100
tolerance = 0.01
relative = true
quick_value = 50
quick_tolerance = 1
source = "Table 1"
page = "Section 2"

[[value]]
key = "full-only"
what = "a number only the full run can give"
value = 7
tolerance = 0
source = "Table 2"
page = "Section 3"
)";

TEST(ReproduceQuick, ChecksOnlyWhatTheQuickRunCanAndAgainstItsOwnReference) {
  const Published published = read_published(write_published("quick-three", kThreeRows));
  ASSERT_EQ(published.values.size(), 3u);
  EXPECT_EQ(published.values[0].quick, PublishedValue::Quick::same);
  EXPECT_EQ(published.values[1].quick, PublishedValue::Quick::reference);
  EXPECT_EQ(published.values[2].quick, PublishedValue::Quick::not_checked);

  Measurements m;
  m.facts["trend"] = true;
  m.numbers["number"] = 50.5;  // the quick run's value: within 1 of 50, far from 100
  m.numbers["full-only"] = 3;  // wrong for the full run, but not checked in a quick run
  const Reproduction quick = compare(published, m, true);
  EXPECT_TRUE(quick.comparisons[0].applicable && quick.comparisons[0].pass);
  EXPECT_TRUE(quick.comparisons[1].applicable && quick.comparisons[1].pass);
  EXPECT_DOUBLE_EQ(quick.comparisons[1].reference, 50);
  EXPECT_DOUBLE_EQ(quick.comparisons[1].difference, 0.5);
  EXPECT_FALSE(quick.comparisons[2].applicable);
  EXPECT_TRUE(quick.all_pass());
  const std::string text = format_text(quick);
  EXPECT_NE(text.find("2 of 2 checkable PASS (1 n/a in a quick run)"), std::string::npos) << text;
  EXPECT_NE(text.find("n/a (quick)"), std::string::npos);
  EXPECT_NE(text.find("quick ref 50"), std::string::npos);

  // The full run compares every row with the paper: 50.5 is far from 100, 3 is not 7.
  const Reproduction full = compare(published, m, false);
  EXPECT_TRUE(full.comparisons[0].pass);
  EXPECT_FALSE(full.comparisons[1].pass);
  EXPECT_DOUBLE_EQ(full.comparisons[1].reference, 100);
  EXPECT_FALSE(full.comparisons[2].pass);
  EXPECT_FALSE(full.all_pass());
  EXPECT_NE(format_text(full).find("1 of 3 PASS"), std::string::npos);
}

TEST(ReproduceQuick, AFailingCheckableRowFailsTheQuickRun) {
  const Published published = read_published(write_published("quick-fail", kThreeRows));
  Measurements m;
  m.facts["trend"] = false;
  m.numbers["number"] = 50;
  EXPECT_FALSE(compare(published, m, true).all_pass());
}

TEST(ReproduceQuick, NothingCheckableIsNotAPass) {
  const Published published = read_published(write_published("quick-none", R"(
[[value]]
key = "full-only"
what = "x"
value = 7
tolerance = 0
source = "Table 2"
page = "Section 3"
)"));
  Measurements m;
  m.numbers["full-only"] = 7;
  EXPECT_FALSE(compare(published, m, true).all_pass());
  EXPECT_TRUE(compare(published, m, false).all_pass());
}

TEST(ReproduceQuick, MalformedQuickFieldsNameTheValue) {
  const auto bad = [](const std::string& name, const std::string& fields) {
    const std::string path =
        write_published(name,
                        "[[value]]\nkey = \"k\"\nwhat = \"w\"\nsource = \"s\"\npage = "
                        "\"p\"\n" +
                            fields);
    try {
      read_published(path);
    } catch (const InputError& error) {
      return std::string(error.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(bad("q1", "fact = true\nquick_value = 1\nquick_tolerance = 1\n").find("[k]"),
            std::string::npos);
  EXPECT_NE(bad("q2", "value = 1\ntolerance = 1\nquick_value = 1\n").find("quick_tolerance"),
            std::string::npos);
  EXPECT_NE(bad("q3", "value = 1\ntolerance = 1\nquick = \"yes\"\n").find("true or false"),
            std::string::npos);
  EXPECT_NE(bad("q4", "value = 1\ntolerance = 1\nquik = true\n").find("unknown field 'quik'"),
            std::string::npos);
  EXPECT_NE(bad("q5",
                "value = 1\ntolerance = 1\nquick = true\nquick_value = 1\n"
                "quick_tolerance = 1\n")
                .find("not both"),
            std::string::npos);
}

}  // namespace
}  // namespace allocsim::sweep
