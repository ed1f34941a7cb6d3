// `eval` explains its verdicts: every margin, bound and error with its unit, as JSON numbers;
// for ccd the separation, the conditioning behind the bound, cut_short and the ground truth;
// a summary of counts per verdict; --only.
#include "cases/json_input.hpp"
#include "harness/registry.hpp"
#include "harness/tests/test_util.hpp"

#include <boost/test/unit_test.hpp>

#include <cmath>

using contactbench::test::run_cli;
using contactbench::test::TempFile;
using nlohmann::json;
namespace harness = contactbench::harness;

namespace {

// A number of an eval record: a JSON number, or "inf"/"-inf"/"nan" (JSON has none).
bool is_number(const json& v) {
  return v.is_number() || v == "inf" || v == "-inf" || v == "nan";
}

// A point 0.5 above the unit right triangle z = 0, moving 0.1 along x over the step, its
// projection inside the triangle throughout: it misses, and its least distance is 0.5 with
// the scale (largest |coordinate|) 1. The triangle's smallest altitude is 1/sqrt(2), so its
// conditioning scale / altitude = sqrt(2) is clamped up to 4.
const char* miss_query = R"({"kind":"vertex-face","x":[[0.2,0.2,0.5],[0,0,0],[1,0,0],[0,1,0],)"
                         R"([0.3,0.2,0.5],[0,0,0],[1,0,0],[0,1,0]])";

// The summary counts every verdict, zeros included.
const json two_agree = {{"agree", 2}, {"boundary", 0}, {"false_positive", 0}, {"wrong", 0}, {"out_of_domain", 0}};

}  // namespace

BOOST_AUTO_TEST_SUITE(eval)

// Every registry entry (own, published, planted: the planted ones give mismatches and errors
// beyond their bounds) states a unit for every margin, bound and error it reports, and writes
// the numbers as numbers.
BOOST_AUTO_TEST_CASE(every_field_has_numbers_and_a_unit) {
  std::size_t mismatches = 0, errors = 0, decisions = 0;
  for (const auto& f : harness::families())
    BOOST_TEST_CONTEXT(f.name) {
      const harness::CheckOptions o{.n = 24, .seed = 11, .timing = false};
      for (const auto& r : f.sample(o)) {
        const auto& c = r.at("comparison");
        for (const auto& m : c.at("mismatches")) {
          ++mismatches;
          BOOST_TEST(!m.at("unit").get<std::string>().empty(), m.dump());
          BOOST_TEST(is_number(m.at("margin")), m.dump());
          BOOST_TEST(is_number(m.at("bound")), m.dump());
          BOOST_TEST(m.at("excused").is_boolean());
        }
        for (const auto& e : c.at("errors")) {
          ++errors;
          BOOST_TEST(!e.at("unit").get<std::string>().empty(), e.dump());
          BOOST_TEST(is_number(e.at("error")), e.dump());
          BOOST_TEST(is_number(e.at("bound")), e.dump());
          // `within` is the rule's |error| <= bound, stated beside the numbers.
          if (e["error"].is_number() && e["bound"].is_number())
            BOOST_TEST(e.at("within").get<bool>() ==
                       (std::abs(e["error"].get<double>()) <= e["bound"].get<double>()), e.dump());
        }
        for (const auto& d : c.at("decisions")) {
          ++decisions;
          BOOST_TEST(!d.at("unit").get<std::string>().empty(), d.dump());
          BOOST_TEST(is_number(d.at("margin")), d.dump());
        }
        // A wrong verdict always has something that says why.
        if (r["verdict"] == "wrong")
          BOOST_TEST(c["mismatches"].size() + c["errors"].size() > 0u, r.dump());
      }
    }
  BOOST_TEST(mismatches > 0u);
  BOOST_TEST(errors > 0u);
  BOOST_TEST(decisions > 0u);
}

BOOST_AUTO_TEST_CASE(ccd_explains_separation_conditioning_and_ground_truth) {
  TempFile q("q.jsonl", std::string(miss_query) + R"(,"ground_truth":0})" + "\n" + miss_query + "}\n");
  TempFile out("eval.json");
  BOOST_TEST(run_cli({"eval", "--family", "ccd", "--input", q.str(), "--json", out.str()}) == 0);
  const json doc = contactbench::cases::read_json_file(out.str());
  BOOST_TEST(doc["counts"] == two_agree, doc["counts"].dump());
  BOOST_REQUIRE(doc["records"].size() == 2u);
  const auto& c = doc["records"][0]["comparison"];
  BOOST_TEST(doc["records"][0]["verdict"] == "agree");
  const auto& x = c.at("explain");
  BOOST_TEST(std::abs(x["separation"]["value"].get<double>() - 0.5) <= 1e-15);
  BOOST_TEST(x["separation"]["unit"] == "× ccd scale");
  BOOST_TEST(x["scale"]["value"].get<double>() == 1.0);
  BOOST_TEST(x["conditioning"]["kappa"].get<double>() == 4.0);
  BOOST_TEST(x["excused_below"]["value"].get<double>() == 0x1p-37);  // 2^-38 kappa / 2
  BOOST_TEST(x["cut_short"] == false);
  BOOST_TEST(x["ground_truth"] == 0);
  BOOST_TEST(doc["records"][1]["comparison"]["explain"]["ground_truth"] == "not supplied");
  // The reference's decision, with its margin and bound as numbers in one unit.
  BOOST_REQUIRE(c["decisions"].size() == 1u);
  const auto& d = c["decisions"][0];
  BOOST_TEST(d["decision"] == "hit");
  BOOST_TEST(d["value"] == "miss");
  BOOST_TEST(std::abs(d["margin"].get<double>() - 0.5) <= 1e-15);
  BOOST_TEST(d["bound"].get<double>() == 0x1p-37);
  BOOST_TEST(d["unit"] == "× ccd scale");
}

BOOST_AUTO_TEST_CASE(only_filters_records_not_counts) {
  TempFile q("q.jsonl", std::string(miss_query) + "}\n\n" + miss_query + "}\n");
  TempFile out("eval.json");
  BOOST_TEST(run_cli({"eval", "--family", "ccd", "--input", q.str(), "--only", "wrong,boundary",
                      "--json", out.str()}) == 0);
  const json doc = contactbench::cases::read_json_file(out.str());
  BOOST_TEST(doc["counts"] == two_agree, doc["counts"].dump());
  BOOST_TEST(doc["records"].empty());
  BOOST_TEST(run_cli({"eval", "--family", "ccd", "--input", q.str(), "--only", "agree", "--json",
                      out.str()}) == 0);
  const json all = contactbench::cases::read_json_file(out.str());
  BOOST_REQUIRE(all["records"].size() == 2u);
  BOOST_TEST(all["records"][1]["line"] == 3);  // the blank line 2 is skipped, lines keep their numbers
  BOOST_TEST(run_cli({"eval", "--family", "ccd", "--input", q.str(), "--only", "wrongs"}) == 2);
}

BOOST_AUTO_TEST_SUITE_END()
