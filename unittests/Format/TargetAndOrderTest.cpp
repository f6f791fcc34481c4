//===- TargetAndOrderTest.cpp - Targets and logical dimension orders -----===//

#include "dla/Format/ChunkedLayout.h"
#include "dla/Format/LogicalOrder.h"
#include "dla/Format/NvdlaFeature.h"
#include "dla/Format/Target.h"

#include <gtest/gtest.h>

using namespace dlaformat;

TEST(TargetTest, Parses) {
  Expected<Target> small = parseTarget("nv_small");
  ASSERT_TRUE(small.ok());
  EXPECT_EQ(small->accelerator, Accelerator::Nvdla);
  EXPECT_EQ(small->config, nvdla::HardwareKind::NvSmall);
  Expected<Target> large = parseTarget("nvdla:nv_large");
  ASSERT_TRUE(large.ok());
  EXPECT_EQ(large->config, nvdla::HardwareKind::NvLarge);
  EXPECT_EQ(large->toString(), "nvdla nv_large");
  Expected<Target> htp = parseTarget("htp");
  ASSERT_TRUE(htp.ok());
  EXPECT_EQ(htp->toString(), "htp");
  EXPECT_EQ(parseTarget("nvdla")->config, nvdla::HardwareKind::NvFull);
  EXPECT_FALSE(parseTarget("htp:nv_small").ok());
  EXPECT_FALSE(parseTarget("nv_small:x").ok());
  EXPECT_EQ(parseTarget("tpu").message(),
            "unknown target 'tpu'; expected htp, nvdla, or nvdla:<config> / <config> with "
            "<config> one of nv_full, nv_large, nv_small");
}

TEST(LogicalOrderTest, RolesDecideRelayouts) {
  EXPECT_TRUE(readSameAxes(LogicalOrder::NCHW, LogicalOrder::KCRS));
  EXPECT_FALSE(readSameAxes(LogicalOrder::NCHW, LogicalOrder::NHWC));
  EXPECT_FALSE(readSameAxes(LogicalOrder::NHWC, LogicalOrder::HWIO));
  EXPECT_FALSE(readSameAxes(LogicalOrder::KCRS, LogicalOrder::HWIO));
  EXPECT_TRUE(readSameAxes(LogicalOrder::Unspecified, LogicalOrder::HWIO));
}

TEST(LogicalOrderTest, FormatsStateTheirOrder) {
  auto crouton = ChunkedLayout::getPreset(ChunkedPreset::Crouton).bind({1, 3, 5, 30}, 1);
  ASSERT_TRUE(crouton.ok());
  EXPECT_EQ((*crouton)->getLogicalOrder(), LogicalOrder::NHWC);
  auto weight = ChunkedLayout::getPreset(ChunkedPreset::ConvWeight).bind({3, 3, 8, 8}, 1);
  ASSERT_TRUE(weight.ok());
  EXPECT_EQ((*weight)->getLogicalOrder(), LogicalOrder::HWIO);
  auto custom = ChunkedLayout::get(4, {{0, 0}, {2, 0}, {1, 0}, {3, 0}});
  ASSERT_TRUE(custom.ok());
  EXPECT_EQ((*custom->bind({1, 2, 3, 4}, 1))->getLogicalOrder(), LogicalOrder::Unspecified);
  nvdla::FeatureConfig config;
  auto feature = nvdla::FeatureBoundLayout::bind(config, {1, 3, 5, 30});
  ASSERT_TRUE(feature.ok());
  EXPECT_EQ((*feature)->getLogicalOrder(), LogicalOrder::NCHW);
}
