#include "scenario/page_census.hpp"

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "core/error.hpp"

namespace dlsim::scenario {
namespace {

constexpr const char* kGranite = DLSIM_SOURCE_DIR "/validation/data/page_census_devbox_granite_1108.csv";

PageCensusKey efficientnet_b3(int64_t batch, const std::string& deployment, const std::string& protocol,
                              const std::string& mode, int clients) {
  return {"efficientnet_b3", batch, 2, deployment, protocol, mode, clients, "tensors"};
}

std::string written(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / name;
  std::ofstream(path) << text;
  return path.string();
}

std::string error_reading(const std::string& path) {
  try {
    PageCensus::read(path);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// The Granite Rapids VM's census of 11:08: each configuration its own count, told apart by
// its clients too; none for a configuration it never counted.
TEST(PageCensus, EachConfigurationHasItsOwnCount) {
  const auto census = PageCensus::read(kGranite);
  EXPECT_EQ(census.pages(efficientnet_b3(8, "in-process", "", "sync", 1)), 99732);
  EXPECT_EQ(census.pages(efficientnet_b3(8, "local", "grpc", "async", 2)), 116438);
  EXPECT_EQ(census.pages(efficientnet_b3(8, "local", "grpc", "sync", 2)), 82678);
  EXPECT_FALSE(census.pages(efficientnet_b3(8, "local", "grpc", "async", 1)));
  EXPECT_FALSE(census.pages(efficientnet_b3(4, "in-process", "", "sync", 1)));
  EXPECT_EQ(census.models(), (std::vector<std::string>{"densenet169", "efficientnet_b3", "regnet_x_3_2gf"}));
}

TEST(PageCensus, ACensusWithoutItsColumnsOrCountsIsRefusedWithTheLine) {
  const std::string header = "model,batch,server_threads,deployment,protocol,mode,concurrency,input,pass_page_faults\n";
  std::string err = error_reading(written("no_clients.csv", "model,batch\nresnet18,8\n"));
  EXPECT_NE(err.find("server_threads"), std::string::npos) << err;
  err = error_reading(written("bad_count.csv", header + "resnet18,8,2,in-process,,sync,1,tensors,12517\n"
                                                        "resnet18,8,2,local,http,sync,2,tensors,many\n"));
  EXPECT_NE(err.find(":3"), std::string::npos) << err;
  EXPECT_NE(err.find("'many'"), std::string::npos) << err;
  EXPECT_NE(err.find("a whole number"), std::string::npos) << err;
}

TEST(PageCensus, AKeySaysWhichConfigurationItIs) {
  EXPECT_EQ(to_string(efficientnet_b3(8, "local", "grpc", "async", 2)),
            "efficientnet_b3 at batch 8 on 2 threads, local grpc async, 2 clients, tensors");
  EXPECT_EQ(to_string(efficientnet_b3(1, "in-process", "", "sync", 1)),
            "efficientnet_b3 at batch 1 on 2 threads, in process, 1 client, tensors");
}

}  // namespace
}  // namespace dlsim::scenario
