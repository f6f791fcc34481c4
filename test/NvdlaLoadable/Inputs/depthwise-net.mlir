// An int8 network with a depthwise convolution between two layers
// (network-segments.test): on nv_small --dla-convert-tosa runs it as 3
// groups of 8 channels, each a dla.channel_slice of the input, a dense
// convolution and its rescale, joined by a dla.channel_concat that the
// 1x1 convolution after it reads: channel views at both ends and in the
// middle, no host operation between the layers.
func.func @main(%a0: tensor<1x4x5x24xi8>) -> tensor<1x4x5x16xi8> {
  %dw = "tosa.const"() {values = dense<"0x350F162F092128DFCAE8E62C31C4FF26D323D2FC25E8ECE51AE23AF9FD000906013B2423180EEC3AFBDD29D72A0DD1C9F9C8D40138FB2532260FF801E3FFF1E13BC5CFDB38172DDC1AF0FEC40E2713D604E4372DDA0134291810C91DFCCEE1041B000D2C16EF110BD0CB13F20BEADFD6F125F4F10939F30AF80CF910051536D607F8EEE0CAF427CFF43836DDC414C5E8FF2CCF1303D32929FD350C303708E5D507DB1E33E106C9D9F12E38100A08CBF139F5DDE019C8382D08FC1F05FDEAF91ECAC71AF024C730D2F538D1121BF7CD02F82C15EDCA0AE516"> : tensor<3x3x24x1xi8>} : () -> tensor<3x3x24x1xi8>
  %pw = "tosa.const"() {values = dense<"0x2BEE3002031F22313BD6F534E8C4091E1D2511D429F6292538C52B0FFE233601CE1BDFDFDBDB31EFD0D9F3EDE9352B083AECD4E4CE36DEF9DC39D60136022F2F201D090927F7352DF0F51932CFCCE1F7D70204361DE222241515E91AD40F3238E7EB0EF31BDCD8CAFCDDE73125280BD11D0C31FDD80BFA13F1E8D3371EFBE00FF510CEDA1CCB15F5C41F17252F1B28D1323117241C2D2E022531E7C9D8C7F8C6E3E218E135DA3808E1C8E80AD1D7D115CEC6FAE908342A041125F812DD0DE0DA1F08F1C8E024FC37302AC5CA09EC29EAD6D1E80FD323E8E9132BF823E8D327201E2DFFDB0A08F210E30D23CFFA13CA0F31261624EFEBCE1AE92CFB2FD4D7EDC7FF1213DDD7070F352FF1D7E22DFA3B120BD00AF129D4DB13152702F1E8F01304E7DD19E1DDEB2AFA0BCDED1E20092DE7D7CDDB1F30D300D329D310CD1C301BE429E81E27FE0E2ADAC6F8D92E2CF1E919FACF131BCC2104272A14ECF01ACBDF02351E25DAE5E31D04DD1D102F07D32EDACA23FA11D31AF43B10342329CE210CF3"> : tensor<16x1x1x24xi8>} : () -> tensor<16x1x1x24xi8>
  %b24 = "tosa.const"() {values = dense<0> : tensor<24xi32>} : () -> tensor<24xi32>
  %b16 = "tosa.const"() {values = dense<0> : tensor<16xi32>} : () -> tensor<16xi32>
  %z = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %m = "tosa.const"() {values = dense<1518500250> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<41> : tensor<1xi8>} : () -> tensor<1xi8>
  %z32 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %c = tosa.depthwise_conv2d %a0, %dw, %b24, %z, %z {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x4x5x24xi8>, tensor<3x3x24x1xi8>, tensor<24xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x5x24xi32>
  %r = tosa.rescale %c, %m, %s, %z32, %z {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x4x5x24xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x4x5x24xi8>
  %p = tosa.conv2d %r, %pw, %b16, %z, %z {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x5x24xi8>, tensor<16x1x1x24xi8>, tensor<16xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x5x16xi32>
  %y = tosa.rescale %p, %m, %s, %z32, %z {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x4x5x16xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x4x5x16xi8>
  return %y : tensor<1x4x5x16xi8>
}
