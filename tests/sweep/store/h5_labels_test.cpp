// Text columns stored as codes with label attributes: codes, pages of labels across appends
// and File objects, format 1 tables (string members) still read, per-job node intervals.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "allocsim/sweep/store/results.hpp"
#include "sweep/temp_dir.hpp"

namespace allocsim::sweep {
namespace {

/// The class of member `name` of a table dataset's compound type.
H5T_class_t member_class(const h5::File& file, const std::string& path, const std::string& name) {
  const hid_t dataset = H5Dopen2(file.id(), path.c_str(), H5P_DEFAULT);
  const hid_t type = H5Dget_type(dataset);
  const int index = H5Tget_member_index(type, name.c_str());
  const H5T_class_t out =
      index < 0 ? H5T_NO_CLASS : H5Tget_member_class(type, static_cast<unsigned>(index));
  H5Tclose(type);
  H5Dclose(dataset);
  return out;
}

TEST(H5Labels, TextColumnsAreCodesWithLabelAttributes) {
  const TempDir temp("allocsim_h5_labels_test");
  const std::string path = temp("codes.h5");
  h5::Table t({{"id", h5::ColumnType::u64}, {"alloc", h5::ColumnType::text, "", "allocator"}});
  t.add_row({std::uint64_t{1}, std::string("mc1x1")});
  t.add_row({std::uint64_t{2}, std::string("héllo")});
  t.add_row({std::uint64_t{3}, std::string("mc1x1")});
  t.add_row({std::uint64_t{4}, std::string()});
  {
    h5::File file(path, h5::File::Mode::create);
    file.create_table("/t", t.columns(), 2, false);
    file.append_table("/t", t);
  }
  h5::File file(path, h5::File::Mode::read);
  EXPECT_EQ(member_class(file, "/t", "alloc"), H5T_INTEGER);
  EXPECT_FALSE(file.has_string_members("/t"));
  EXPECT_EQ(file.text_array_attr("/t", "labels_alloc"),
            (std::vector<std::string>{"mc1x1", "héllo", ""}));
  const h5::Table back = file.read_table("/t");
  ASSERT_EQ(back.rows(), 4u);
  EXPECT_EQ(back.columns()[1].type, h5::ColumnType::text);
  EXPECT_EQ(back.columns()[1].description, "allocator");
  for (std::size_t r = 0; r < 4; ++r) EXPECT_EQ(back.text(r, 1), t.text(r, 1));
}

TEST(H5Labels, NewLabelsOfEachAppendGoToNewPagesAlsoAfterReopening) {
  const TempDir temp("allocsim_h5_labels_test");
  const std::string path = temp("pages.h5");
  const std::vector<h5::ColumnDef> columns = {{"text", h5::ColumnType::text}};
  std::vector<std::string> expected;
  std::size_t next = 0;  // values "v0", "v1", ... in order of first appearance
  auto batch = [&](std::size_t fresh, std::size_t repeats) {
    h5::Table t(columns);
    for (std::size_t i = 0; i < fresh; ++i) expected.push_back("v" + std::to_string(next++));
    for (std::size_t i = 0; i < repeats; ++i) expected.push_back("v" + std::to_string(i));
    for (std::size_t i = expected.size() - fresh - repeats; i < expected.size(); ++i)
      t.add_row({expected[i]});
    return t;
  };
  {
    h5::File file(path, h5::File::Mode::create);
    file.create_table("/t", columns, 256, true);
    file.append_table("/t", batch(1000, 0));  // page 0 (created empty) gets the first ones
    file.append_table("/t", batch(1500, 20));
    file.append_table("/t", batch(0, 30));  // nothing new: no page
  }
  {
    h5::File file(path, h5::File::Mode::write);  // pages counted from the attributes
    file.append_table("/t", batch(5000, 5));     // more than a page: split
  }
  h5::File file(path, h5::File::Mode::read);
  const std::vector<std::size_t> sizes = {1000, 1500, h5::kLabelsPerPage, h5::kLabelsPerPage,
                                          5000 - 2 * h5::kLabelsPerPage};
  for (std::size_t page = 0; page < sizes.size(); ++page)
    EXPECT_EQ(file.text_array_attr("/t", h5::labels_attr_name("text", page)).size(), sizes[page])
        << page;
  EXPECT_TRUE(file.text_array_attr("/t", "labels_text@5").empty());
  EXPECT_EQ(file.text_array_attr("/t", "labels_text@1")[0], "v1000");
  const h5::Table back = file.read_table("/t");
  ASSERT_EQ(back.rows(), expected.size());
  for (std::size_t r = 0; r < expected.size(); ++r) ASSERT_EQ(back.text(r, 0), expected[r]) << r;
}

TEST(H5Labels, CodesWithoutLabelsAreAnErrorNotACrash) {
  const TempDir temp("allocsim_h5_labels_test");
  const std::string path = temp("damaged.h5");
  {
    h5::File file(path, h5::File::Mode::create);
    h5::Table t({{"text", h5::ColumnType::text}});
    t.add_row({std::string("a")});
    t.add_row({std::string("b")});
    file.create_table("/t", t.columns(), 4, false);
    file.append_table("/t", t);
    file.set_text_array_attr("/t", "labels_text", {"a"});  // label of code 1 lost
  }
  h5::File file(path, h5::File::Mode::read);
  try {
    file.read_table("/t");
    FAIL() << "read a code without label";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("has code 1 in column 'text', which has 1 labels"),
              std::string::npos)
        << error.what();
  }
}

TEST(H5Labels, FormatOneStringMembersAreRead) {
  const TempDir temp("allocsim_h5_labels_test");
  const std::string path = temp("format1.h5");
  {
    // The format 1 layout: a variable-length UTF-8 string member, no labels attribute.
    h5::File file(path, h5::File::Mode::create);
    const hid_t text = H5Tcopy(H5T_C_S1);
    H5Tset_size(text, H5T_VARIABLE);
    H5Tset_cset(text, H5T_CSET_UTF8);
    const hid_t type = H5Tcreate(H5T_COMPOUND, 16);
    H5Tinsert(type, "id", 0, H5T_NATIVE_INT64);
    H5Tinsert(type, "alloc", 8, text);
    const hsize_t dims[1] = {2};
    const hid_t space = H5Screate_simple(1, dims, nullptr);
    const hid_t dataset =
        H5Dcreate2(file.id(), "/t", type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    struct Row {
      std::int64_t id;
      const char* alloc;
    };
    const Row rows[2] = {{7, "flat"}, {8, "naïve"}};
    ASSERT_GE(H5Dwrite(dataset, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, rows), 0);
    H5Dclose(dataset);
    H5Sclose(space);
    H5Tclose(type);
    H5Tclose(text);
  }
  h5::File file(path, h5::File::Mode::read);
  EXPECT_TRUE(file.has_string_members("/t"));
  const h5::Table back = file.read_table("/t");
  ASSERT_EQ(back.rows(), 2u);
  EXPECT_EQ(back.columns()[1].type, h5::ColumnType::text);
  EXPECT_EQ(back.text(1, 1), "naïve");
  EXPECT_EQ(back.i64(0, 0), 7);
}

TEST(JobTables, NodeIdsAreIntervalsAndReadBackAsText) {
  const TempDir temp("allocsim_h5_labels_test");
  const std::string path = temp("jobs.h5");
  std::vector<JobRecord> jobs(3);
  jobs[0].job_id = 0, jobs[0].allocated_nodes = "0-3 8 10-11";
  jobs[1].job_id = 1, jobs[1].allocated_nodes = "";
  jobs[2].job_id = 5, jobs[2].allocated_nodes = "63";
  {
    h5::File file(path, h5::File::Mode::create);
    write_job_tables(file, "00000000000000ab", jobs);
  }
  h5::File file(path, h5::File::Mode::read);
  const h5::Table nodes = file.read_table("/job_nodes/00000000000000ab");
  ASSERT_EQ(nodes.rows(), 4u);
  EXPECT_EQ(nodes.i64(0, 0), 0);
  EXPECT_EQ(nodes.i64(0, 1), 3);
  EXPECT_EQ(nodes.i64(3, 0), 63);
  EXPECT_EQ(nodes.i64(3, 1), 63);
  const h5::Table table = file.read_table("/jobs/00000000000000ab");
  const auto offset = static_cast<std::size_t>(table.find("node_interval_offset"));
  const auto count = static_cast<std::size_t>(table.find("node_interval_count"));
  EXPECT_EQ(table.u64(2, offset), 3u);
  EXPECT_EQ(table.u64(0, count), 3u);
  EXPECT_EQ(table.u64(1, count), 0u);
  EXPECT_FALSE(file.has_string_members("/jobs/00000000000000ab"));
  const auto back = read_job_tables(file, "00000000000000ab");
  ASSERT_EQ(back.size(), 3u);
  for (std::size_t j = 0; j < 3; ++j) {
    EXPECT_EQ(back[j].job_id, jobs[j].job_id);
    EXPECT_EQ(back[j].allocated_nodes, jobs[j].allocated_nodes);
  }
}

}  // namespace
}  // namespace allocsim::sweep
