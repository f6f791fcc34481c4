//===- ModuleGenerator.cpp - Structure-aware dla module generator ---------===//
#include "ModuleGenerator.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <array>
#include <functional>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

using namespace dlafuzz;

namespace {

struct Precision {
  const char *name; // #dla.* spelling
  const char *elem; // element type
  bool isFloat;
};
constexpr Precision kPrecisions[] = {{"int8", "i8", false}, {"int16", "i16", false},
                                     {"fp16", "f16", true}};

std::string shapeText(const std::vector<int64_t> &shape, const std::string &elem,
                      const std::string &enc = "") {
  std::string s = "tensor<";
  for (int64_t d : shape)
    s += std::to_string(d) + "x";
  s += elem;
  if (!enc.empty())
    s += ", " + enc;
  return s + ">";
}

std::string list(const std::vector<int64_t> &v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i)
    s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

class Generator {
public:
  Generator(const uint8_t *data, size_t size) : p(data, size) {}

  GeneratedModule run() {
    int items = p.ConsumeIntegralInRange<int>(1, 4);
    for (int i = 0; i < items; ++i) {
      switch (p.ConsumeIntegralInRange<int>(0, 5)) {
      case 0:
      case 1: constantRelayout(); break;
      case 2: conv(); break;
      case 3: pool(); break;
      case 4: sdp(); break;
      case 5: lrn(); break;
      }
    }
    GeneratedModule m;
    std::string sig, rets, retTypes;
    for (size_t i = 0; i < args.size(); ++i)
      sig += (i ? ", " : "") + std::string("%a") + std::to_string(i) + ": " + args[i];
    for (size_t i = 0; i < results.size(); ++i) {
      rets += (i ? ", " : "") + results[i].first;
      retTypes += (i ? ", " : "") + results[i].second;
    }
    m.text = "func.func @f(" + sig + ") -> (" + retTypes + ") {\n" + body + "  return " + rets +
             (results.empty() ? "" : " : ") + retTypes + "\n}\n";
    // Usually generous; sometimes below what packing needs (a diagnostic).
    m.maxBytes = p.ConsumeBool() ? (int64_t(1) << 26) : p.ConsumeIntegralInRange<int64_t>(0, 1 << 16);
    return m;
  }

private:
  FuzzedDataProvider p;
  std::string body;
  std::vector<std::string> args;
  std::vector<std::pair<std::string, std::string>> results;
  int next = 0;

  // One defect in about 8 items keeps most modules valid.
  bool defect() { return p.ConsumeIntegralInRange<int>(0, 63) < 8; }
  int64_t small(int64_t lo, int64_t hi) { return p.ConsumeIntegralInRange<int64_t>(lo, hi); }
  int64_t maybeBreak(int64_t v) {
    if (!defect())
      return v;
    static constexpr int64_t kBad[] = {0, -1, 1, 2, 3, 7, 33, int64_t(1) << 31, int64_t(1) << 40,
                                       int64_t(1) << 62, std::numeric_limits<int64_t>::max()};
    return p.ConsumeBool() ? v + 1 : kBad[p.ConsumeIntegralInRange<size_t>(0, std::size(kBad) - 1)];
  }
  std::string value() { return "%v" + std::to_string(next++); }
  std::string arg(const std::string &type) {
    args.push_back(type);
    return "%a" + std::to_string(args.size() - 1);
  }
  const Precision &precision() { return kPrecisions[p.ConsumeIntegralInRange<int>(0, 2)]; }

  // dense<...> with random (non-splat) or splat data.
  std::string dense(const std::vector<int64_t> &shape, const std::string &elem) {
    int64_t n = 1; // saturates above 4096: only small constants get a list
    for (int64_t d : shape)
      n = d <= 0 ? 0 : (n > 4096 / d ? 4097 : n * d);
    bool isFloat = elem[0] == 'f' || elem == "bf16";
    auto one = [&] {
      if (elem == "i1")
        return std::string(p.ConsumeBool() ? "true" : "false");
      if (isFloat) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.3f", p.ConsumeIntegralInRange<int>(-2000, 2000) / 64.0);
        return std::string(buf);
      }
      int bits = elem == "i8" || elem == "ui8" ? 8 : elem == "i16" || elem == "ui16" ? 16 : 32;
      int64_t lo = elem[0] == 'u' ? 0 : -(int64_t(1) << (bits - 1));
      int64_t hi = elem[0] == 'u' ? (int64_t(1) << bits) - 1 : (int64_t(1) << (bits - 1)) - 1;
      return std::to_string(p.ConsumeIntegralInRange<int64_t>(lo, hi));
    };
    if (n <= 0 || n > 4096 || p.ConsumeIntegralInRange<int>(0, 3) == 0)
      return "dense<" + one() + ">";
    // Nested brackets, innermost dimension last.
    std::string s;
    std::vector<int64_t> idx(shape.size(), 0);
    std::function<void(size_t)> rec = [&](size_t d) {
      if (d == shape.size()) {
        s += one();
        return;
      }
      s += "[";
      for (int64_t i = 0; i < shape[d]; ++i) {
        if (i)
          s += ", ";
        rec(d + 1);
      }
      s += "]";
    };
    rec(0);
    return "dense<" + s + ">";
  }

  // A constant of `shape`/`elem` relayouted to `enc`, returned.
  void emitConstant(const std::vector<int64_t> &shape, const std::string &elem,
                    const std::string &enc) {
    std::string c = value(), r = value();
    std::string plain = shapeText(shape, elem);
    if (elem == "f16" && p.ConsumeIntegralInRange<int>(0, 3) == 0) {
      // fp32 source rounded to fp16 while packing.
      std::string c32 = value();
      body += "  " + c32 + " = arith.constant " + dense(shape, "f32") + " : " +
              shapeText(shape, "f32") + "\n";
      body += "  " + c + " = arith.truncf " + c32 + " : " + shapeText(shape, "f32") + " to " +
              plain + "\n";
    } else {
      body += "  " + c + " = arith.constant " + dense(shape, elem) + " : " + plain + "\n";
    }
    std::string encoded = shapeText(shape, elem, enc);
    body += "  " + r + " = dla.relayout " + c + " : " + plain + " -> " + encoded + "\n";
    results.push_back({r, encoded});
  }

  void constantRelayout() {
    switch (p.ConsumeIntegralInRange<int>(0, 5)) {
    case 0: { // chunked
      static constexpr const char *kPresets[] = {"flat",       "nchw",       "depth32",
                                                 "crouton",    "crouton4x1", "crouton2x2",
                                                 "crouton2",   "conv_weight"};
      static constexpr const char *kElems[] = {"i8", "i16", "f16", "i32", "f32", "ui8"};
      std::string elem = kElems[p.ConsumeIntegralInRange<int>(0, 5)];
      std::string enc;
      std::vector<int64_t> shape;
      if (p.ConsumeBool()) {
        enc = std::string("#dla.chunked<") + kPresets[p.ConsumeIntegralInRange<int>(0, 7)] + ">";
        shape = {small(1, 2), small(1, 9), small(1, 9), small(1, 40)};
      } else {
        int rank = small(0, 4);
        std::string pairs;
        for (int d = 0; d < rank; ++d)
          pairs += (d ? "," : "") + std::string("(") + std::to_string(d) + ",0)";
        for (int t = small(0, 3); t > 0 && rank > 0; --t) {
          static constexpr int64_t kTiles[] = {2, 3, 4, 8, 32};
          pairs += ",(" + std::to_string(maybeBreak(small(0, rank - 1))) + "," +
                   std::to_string(maybeBreak(kTiles[small(0, 4)])) + ")";
        }
        enc = "#dla.chunked<[" + pairs + "]>";
        for (int d = 0; d < rank; ++d)
          shape.push_back(small(1, 9));
      }
      if (!shape.empty())
        shape[0] = maybeBreak(shape[0]);
      emitConstant(shape, elem, enc);
      return;
    }
    case 1: { // feature data
      const Precision &pr = precision();
      std::string enc = std::string("#dla.feature<") + pr.name;
      if (p.ConsumeIntegralInRange<int>(0, 3) == 0)
        enc += ", line_stride = " + std::to_string(maybeBreak(32 * small(1, 12)));
      enc += ">";
      emitConstant({1, small(1, 40), small(1, 6), small(1, 9)}, pr.elem, enc);
      return;
    }
    case 2: { // weights
      static constexpr const char *kFormats[] = {"direct", "image", "winograd", "deconv"};
      int f = p.ConsumeIntegralInRange<int>(0, 3);
      const Precision &pr = f == 2 ? kPrecisions[2] : precision();
      std::string enc = std::string("#dla.weight<") + kFormats[f] + ", " + pr.name;
      if (p.ConsumeIntegralInRange<int>(0, 2) == 0)
        enc += ", compressed";
      std::vector<int64_t> shape = {small(1, 40), small(1, 40), small(1, 5), small(1, 5)};
      if (f == 1) {
        int64_t channels = std::array<int64_t, 3>{1, 3, 4}[small(0, 2)];
        shape[1] = small(1, channels);
        enc += ", channels = " + std::to_string(maybeBreak(channels));
        if (p.ConsumeBool())
          enc += std::string(", post_extension = ") +
                 std::array<const char *, 4>{"none", "auto", "2", "4"}[small(0, 3)];
      }
      if (f == 2)
        shape[2] = shape[3] = 3;
      if (f == 3 || (f == 2 && p.ConsumeBool()))
        enc += ", stride = " + list({maybeBreak(small(1, 3)), small(1, 3)});
      if (p.ConsumeIntegralInRange<int>(0, 3) == 0)
        enc += std::string(", config = ") +
               std::array<const char *, 3>{"nv_full", "nv_large", "nv_small"}[small(0, 2)];
      if (pr.isFloat && p.ConsumeIntegralInRange<int>(0, 3) == 0) // the default or not
        enc += p.ConsumeBool() ? ", rounding = to_nearest_even" : ", rounding = to_nearest_away";
      enc += ">";
      shape[0] = maybeBreak(shape[0]);
      emitConstant(shape, pr.elem, enc);
      return;
    }
    case 3: { // bias / prelu / batch-norm
      const Precision &pr = precision();
      int64_t c = small(1, 40);
      switch (p.ConsumeIntegralInRange<int>(0, 2)) {
      case 0: {
        static constexpr const char *kModes[] = {"per_layer", "per_channel", "per_element"};
        int m = small(0, 2);
        std::vector<int64_t> shape = m == 0 ? std::vector<int64_t>{}
                                     : m == 1 ? std::vector<int64_t>{c}
                                              : std::vector<int64_t>{c, small(1, 4), small(1, 4)};
        std::string enc = std::string("#dla.bias<") + kModes[m] + ", " + pr.name;
        if (!pr.isFloat && p.ConsumeBool())
          enc += ", data_size = two_byte";
        emitConstant(shape, pr.elem, enc + ">");
        return;
      }
      case 1: emitConstant({maybeBreak(c)}, pr.elem, std::string("#dla.prelu<") + pr.name + ">"); return;
      default: {
        bool perLayer = p.ConsumeBool();
        std::vector<int64_t> shape = perLayer ? std::vector<int64_t>{2} : std::vector<int64_t>{c, 2};
        emitConstant(shape, pr.elem,
                     std::string("#dla.batchnorm<") + (perLayer ? "per_layer" : "per_channel") +
                         ", " + pr.name + ">");
        return;
      }
      }
    }
    case 4: { // element-wise
      const Precision &pr = precision();
      bool two = p.ConsumeBool();
      std::vector<int64_t> shape = {small(1, 40), small(1, 4), small(1, 4)};
      if (two)
        shape.push_back(2);
      emitConstant(shape, pr.elem,
                   std::string("#dla.eltwise<") + pr.name + (two ? ", components = 2>" : ">"));
      return;
    }
    default: { // pixel
      static constexpr struct {
        const char *name, *elem;
        int64_t channels;
      } kPixels[] = {{"T_R8", "ui8", 1},          {"T_R16_I", "i16", 1},
                     {"T_R16_F", "f16", 1},        {"T_R10", "ui16", 1},
                     {"T_A8B8G8R8", "ui8", 4},     {"T_A2B10G10R10", "ui16", 4},
                     {"T_A16B16G16R16_F", "f16", 4}, {"T_Y8___U8V8_N444", "ui8", 3},
                     {"T_Y16___V16U16_N444", "ui16", 3}, {"T_X8R8G8B8", "ui8", 4}};
      const auto &px = kPixels[p.ConsumeIntegralInRange<size_t>(0, std::size(kPixels) - 1)];
      std::string enc = std::string("#dla.pixel<") + px.name;
      if (p.ConsumeIntegralInRange<int>(0, 3) == 0)
        enc += ", line_stride = " + std::to_string(maybeBreak(64 * small(1, 4)));
      emitConstant({1, px.channels, small(1, 6), small(1, 12)}, px.elem, enc + ">");
      return;
    }
    }
  }

  // Either a function argument or a relayouted constant of this type.
  std::string operand(const std::vector<int64_t> &shape, const std::string &elem,
                      const std::string &enc) {
    std::string encoded = shapeText(shape, elem, enc);
    if (enc.empty() || p.ConsumeBool())
      return arg(encoded);
    std::string c = value(), r = value();
    body += "  " + c + " = arith.constant " + dense(shape, elem) + " : " + shapeText(shape, elem) +
            "\n";
    body += "  " + r + " = dla.relayout " + c + " : " + shapeText(shape, elem) + " -> " +
            encoded + "\n";
    return r;
  }

  static int64_t outExtent(int64_t in, int64_t k, int64_t d, int64_t s, int64_t before,
                           int64_t after) {
    int64_t span = (k - 1) * d + 1, padded = in + before + after;
    return padded < span ? 0 : (padded - span) / s + 1;
  }

  void conv() {
    const Precision &pr = precision();
    bool winograd = pr.isFloat && p.ConsumeIntegralInRange<int>(0, 3) == 0;
    int64_t c = small(1, 24), k = small(1, 24), h = small(1, 8), w = small(1, 8);
    int64_t r = winograd ? 3 : small(1, 3), s = winograd ? 3 : small(1, 3);
    int64_t sy = winograd ? 1 : small(1, 2), sx = winograd ? 1 : small(1, 2);
    int64_t dy = winograd ? 1 : small(1, 2), dx = winograd ? 1 : small(1, 2);
    std::vector<int64_t> pad = {small(0, 1), small(0, 1), small(0, 1), small(0, 1)};
    if (winograd)
      pad = {1, 1, 1, 1};
    h = std::max(h, (r - 1) * dy + 1);
    w = std::max(w, (s - 1) * dx + 1);
    int64_t oh = outExtent(h, r, dy, sy, pad[0], pad[1]);
    int64_t ow = outExtent(w, s, dx, sx, pad[2], pad[3]);
    bool encoded = winograd || p.ConsumeBool();
    std::string feat = encoded ? std::string("#dla.feature<") + pr.name + ">" : "";
    std::string wenc = encoded ? std::string("#dla.weight<") + (winograd ? "winograd" : "direct") +
                                     ", " + pr.name +
                                     (p.ConsumeIntegralInRange<int>(0, 3) == 0 ? ", compressed>" : ">")
                               : "";
    std::string x = operand({1, c, h, w}, pr.elem, feat);
    std::string wt = operand({maybeBreak(k), c, r, s}, pr.elem, wenc);
    std::string y = value();
    std::string line = "  " + y + " = dla.conv " + (winograd ? "winograd " : "direct ") + x + ", " + wt;
    std::string types = shapeText({1, c, h, w}, pr.elem, feat) + ", " +
                        shapeText({k, c, r, s}, pr.elem, wenc);
    if (p.ConsumeBool()) {
      std::string benc = encoded ? std::string("#dla.bias<per_channel, ") + pr.name + ">" : "";
      line += ", " + operand({k}, pr.elem, benc);
      types += ", " + shapeText({k}, pr.elem, benc);
    }
    if (sy != 1 || sx != 1 || p.ConsumeBool())
      line += " stride " + list({maybeBreak(sy), sx});
    if (dy != 1 || dx != 1)
      line += " dilation " + list({dy, maybeBreak(dx)});
    if (pad != std::vector<int64_t>{0, 0, 0, 0})
      line += " pad " + list(pad);
    std::string out = shapeText({1, k, maybeBreak(oh), ow}, pr.elem, feat);
    body += line + "\n      : " + types + " -> " + out + "\n";
    results.push_back({y, out});
  }

  void pool() {
    const Precision &pr = precision();
    int64_t c = small(1, 24), h = small(1, 8), w = small(1, 8);
    int64_t kh = small(1, 3), kw = small(1, 3), sy = small(1, 2), sx = small(1, 2);
    std::vector<int64_t> pad = {small(0, kh - 1), small(0, kh - 1), small(0, kw - 1), small(0, kw - 1)};
    h = std::max(h, kh);
    w = std::max(w, kw);
    int64_t oh = outExtent(h, kh, 1, sy, pad[0], pad[1]), ow = outExtent(w, kw, 1, sx, pad[2], pad[3]);
    std::string x = operand({1, c, h, w}, pr.elem, "");
    std::string y = value();
    std::string line = "  " + y + " = dla.pool " + (p.ConsumeBool() ? "max " : "average ") + x +
                       " kernel " + list({maybeBreak(kh), kw});
    if (sy != 1 || sx != 1)
      line += " stride " + list({sy, sx});
    if (pad != std::vector<int64_t>{0, 0, 0, 0})
      line += " pad " + list({pad[0], maybeBreak(pad[1]), pad[2], pad[3]});
    std::string out = shapeText({1, c, oh, ow}, pr.elem);
    body += line + "\n      : " + shapeText({1, c, h, w}, pr.elem) + " -> " + out + "\n";
    results.push_back({y, out});
  }

  void sdp() {
    const Precision &pr = precision();
    const Precision &outPr = p.ConsumeBool() ? pr : precision();
    int64_t c = small(1, 24), h = small(1, 4), w = small(1, 4);
    std::string x = operand({1, c, h, w}, pr.elem, "");
    std::string y = value();
    std::string line = "  " + y + " = dla.sdp offline " + x;
    if (p.ConsumeBool()) {
      line += " bias " + operand({maybeBreak(c)}, pr.elem, "") + " : " + shapeText({c}, pr.elem);
    }
    if (p.ConsumeBool()) {
      std::string bnElem = pr.isFloat ? "f16" : "i16";
      line += " batchnorm " + operand({c, 2}, bnElem, "") + " : " + shapeText({c, 2}, bnElem);
    }
    if (p.ConsumeBool())
      line += " relu";
    std::string out = shapeText({1, c, h, w}, outPr.elem);
    body += line + " : " + shapeText({1, c, h, w}, pr.elem) + " -> " + out + "\n";
    results.push_back({y, out});
  }

  void lrn() {
    const Precision &pr = precision();
    int64_t c = small(1, 24), h = small(1, 4), w = small(1, 4);
    std::string x = operand({1, c, h, w}, pr.elem, "");
    std::string y = value();
    std::string out = shapeText({1, c, h, w}, pr.elem);
    body += "  " + y + " = dla.lrn " + x + " size " + std::to_string(maybeBreak(2 * small(1, 4) + 1)) +
            " : " + out + " -> " + out + "\n";
    results.push_back({y, out});
  }
};

} // namespace

GeneratedModule dlafuzz::generateModule(const uint8_t *data, size_t size) {
  return Generator(data, size).run();
}
