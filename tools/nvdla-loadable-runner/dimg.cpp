// output.dimg as nvdla_runtime writes it, by NVIDIA's own app code
// (umd/apps/runtime/RuntimeTest.cpp: prepareOutputTensor, then after the
// submit DlaBuffer2DIMG and DIMG2DIMGFile(image, "output.dimg", true, ...)).
#include "harness.h"

#include "DlaImageUtils.h"
#include "RuntimeTest.h"
#include "main.h"
#include "nvdla_os_inf.h"

#include <cstring>

namespace dla_loadable {

bool writeDimg(const OutputTensor &output, const std::string &path, std::string &error) {
  nvdla::IRuntime::NvDlaTensor t;
  std::memset(&t, 0, sizeof t);
  std::snprintf(t.name, sizeof t.name, "%s", output.tensor.name.c_str());
  t.bufferSize = output.tensor.bytes;
  t.dims.n = output.tensor.n;
  t.dims.c = output.tensor.c;
  t.dims.h = output.tensor.h;
  t.dims.w = output.tensor.w;
  t.dataFormat = output.tensor.dataFormat;
  t.dataType = output.tensor.dataType;
  t.dataCategory = output.tensor.dataCategory;
  t.pixelFormat = output.tensor.pixelFormat;
  t.pixelMapping = output.tensor.pixelMapping;
  for (size_t i = 0; i < output.tensor.strides.size() && i < NVDLA_RUNTIME_TENSOR_DESC_NUM_STRIDES; ++i)
    t.stride[i] = output.tensor.strides[i];
  if (output.bytes.size() != t.bufferSize) {
    error = "output buffer of " + std::to_string(output.bytes.size()) + " bytes, its tensor has " +
            std::to_string(t.bufferSize);
    return false;
  }
  TestAppArgs args;
  NvDlaImage image;
  void *buffer = const_cast<uint8_t *>(output.bytes.data());
  NvDlaError e = Tensor2DIMG(&args, &t, &image);
  if (e == NvDlaSuccess)
    e = DlaBuffer2DIMG(&buffer, &image);
  if (e == NvDlaSuccess)
    e = DIMG2DIMGFile(&image, path, true, false);
  if (image.m_pData)
    NvDlaFree(image.m_pData);
  image.m_pData = nullptr;
  if (e != NvDlaSuccess) {
    error = "NVIDIA's image code could not write " + path + " (NvDlaError " + std::to_string(int(e)) + ")";
    return false;
  }
  return true;
}

} // namespace dla_loadable
