// A squeeze-excitation block, int8 (se-gate.py: numpy, seed 45,
// utils/dla-ref/run_quant_tosa.py's builders): x = a requantization of
// the input; a global max pool of x (the firmware's averages round
// twice); a 1x1 convolution C -> C/4 with ReLU; one C/4 -> C clamped to
// [0, 127] (the gate at 1/127, written by the convolution's SDP); then
// x * gate[c] requantized: the product's SDP reads the gate's own
// 1x40x1x1 surface per channel (issue 45).
func.func @main(%a0: tensor<1x4x4x40xi8>) -> tensor<1x4x4x40xi8> {
  %v1 = "tosa.const"() {values = dense<"0x80666666"> : tensor<1xi32>} : () -> tensor<1xi32>
  %v2 = "tosa.const"() {values = dense<"0x1F"> : tensor<1xi8>} : () -> tensor<1xi8>
  %v3 = "tosa.const"() {values = dense<"0x00"> : tensor<1xi8>} : () -> tensor<1xi8>
  %v4 = "tosa.const"() {values = dense<"0xFD"> : tensor<1xi8>} : () -> tensor<1xi8>
  %v5 = tosa.rescale %a0, %v1, %v2, %v3, %v4 {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x4x4x40xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x4x40xi8>
  %v6 = tosa.max_pool2d %v5 {kernel = array<i64: 4, 4>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x40xi8>) -> tensor<1x1x1x40xi8>
  %v7 = "tosa.const"() {values = dense<"0x6C123B070843344F1002EC47104B4618C8E8092B032052579E3970071276FCF8EA4F445DDC21588CED8ECB9EEA33E98BD7334FEB6DDE90A70D9BAEA0CF4759ACB135C333EF055F753DDFAC8984FEE0B3889FD37E6CDB5B3162B54C83E579733971353A5102D176EF50DF425F20D0C5D7FC40621C2C0749A4DDE2E0660398F74FF62DDA9D734D8B00A5E8851FCFCB2E9337BB1DAE8AEA6603ACBE5349F8DCAC1C4C3194456CA8AACF5E5303348404CF6996BF99F230FDE0AB2BB5F6226D80BDE59CCBBB4563F1976B8157A7B1976B3F163D9DBB9FB5F3ABF98C7AF7AF6DA64E32E012FBA343CCFEBAC00178B3D13A49FF6793EDFE6017BA0234B9C670F2B72BB35BED59D1CB47779B5352281BED5120A420F3FE652362B1D0BA49FE30EAE4DA3E88F8FCD9CBDF8C6886F248B99D1C5C6F511CDB4B735DF5617494E41F9C4A731E5441B12B12E9876958E3513D76C928EAA8465A5AB6B6397EA9A4494A59EFC1FFCE221CEA407E67D92E98F66360D0FB7F6D657FC95021F76FA7829711C54D46962201FC023F694A780C96AC852CF617FF"> : tensor<10x1x1x40xi8>} : () -> tensor<10x1x1x40xi8>
  %v8 = "tosa.const"() {values = dense<"0xDA0000004AFBFFFFCCFCFFFF08040000EF020000E8FBFFFFA503000059040000D9F8FFFF4DFBFFFF"> : tensor<10xi32>} : () -> tensor<10xi32>
  %v9 = "tosa.const"() {values = dense<"0xFD"> : tensor<1xi8>} : () -> tensor<1xi8>
  %v10 = "tosa.const"() {values = dense<"0x00"> : tensor<1xi8>} : () -> tensor<1xi8>
  %v11 = tosa.conv2d %v6, %v7, %v8, %v9, %v10 {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x1x1x40xi8>, tensor<10x1x1x40xi8>, tensor<10xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x1x1x10xi32>
  %v12 = "tosa.const"() {values = dense<"0x804EDE4300092A568021E375809E2E6A00D79D58002DC35A000304748024BB7480CEA17900D27840"> : tensor<10xi32>} : () -> tensor<10xi32>
  %v13 = "tosa.const"() {values = dense<"0x28292929292929292928"> : tensor<10xi8>} : () -> tensor<10xi8>
  %v14 = "tosa.const"() {values = dense<"0x00000000"> : tensor<1xi32>} : () -> tensor<1xi32>
  %v15 = "tosa.const"() {values = dense<"0xF9"> : tensor<1xi8>} : () -> tensor<1xi8>
  %v16 = tosa.rescale %v11, %v12, %v13, %v14, %v15 {input_unsigned = false, output_unsigned = false, per_channel = true, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x1x1x10xi32>, tensor<10xi32>, tensor<10xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x1x1x10xi8>
  %v17 = tosa.clamp %v16 {max_val = 127 : i8, min_val = -7 : i8} : (tensor<1x1x1x10xi8>) -> tensor<1x1x1x10xi8>
  %v18 = "tosa.const"() {values = dense<"0xF263897CFB69ED71121437F1BA7A9EB6FBA97025D87F09281F5C991FFCFF7D8E17EACFF50A83004C9FEDD344D129821766CBB37D98A1811F60C04AF654DD1B3B67CC2B7266B94085AF90844EDFA195897B0558FB4B5B9AFA2F1DE90ABAE8D3BC89DE52224318FBAA7B9EF87BA055DCC40BFE39802DAD379FB28E44914EFA23B8EA836C46FEF411F342DA9B5132AA8AFB6771FC7C9BA55380F86100766519E82B5C25DF1225512FD5E6770E6B8EA64F0D16219BD39D224304AEE69A4581A44A02DFC3A8CDD721A6C72620A869FA3744C1BE78D7BA2E26C6947AF9C08DA34B0F1432A38D8444B543B5A949EBD394868A09A49E66FB37569DC84661F5BC202ED00386FD96C9691DCDAB3BEB610314FD31898C3405089C930660CD5FA9A7C3B52F13AF2AC65EC02A8849EE1D517D7F620738B6F2468FC8E1859D1B340197746BC2CBA12F009347FC028D28BDB2F72C590B2CF5DE7A9D5B7DBC49EA3CCE3DAA067AC490A6C840ED4FEB803DA19A6B3D65BDFDC38510595CE6910E9820AAE73F5C1ED5372C78646A6A558D6693FC8ADC8B064D"> : tensor<40x1x1x10xi8>} : () -> tensor<40x1x1x10xi8>
  %v19 = "tosa.const"() {values = dense<"0xA90B0000E5430000F16100000F6000000A2E0000E85900001A180000CB380000656200005E0C0000935D0000B630000051400000E44D0000E00F0000A70B00003816000004490000F31D0000BF1400002C0600005F5A0000662500005E130000471C0000DE5400002D4C0000F60A00007919000089420000AD2F0000DC03000040170000464300009A0C00000F470000344B00000254000065340000E14A0000"> : tensor<40xi32>} : () -> tensor<40xi32>
  %v20 = "tosa.const"() {values = dense<"0xF9"> : tensor<1xi8>} : () -> tensor<1xi8>
  %v21 = "tosa.const"() {values = dense<"0x00"> : tensor<1xi8>} : () -> tensor<1xi8>
  %v22 = tosa.conv2d %v17, %v18, %v19, %v20, %v21 {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x1x1x10xi8>, tensor<40x1x1x10xi8>, tensor<40xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x1x1x40xi32>
  %v23 = "tosa.const"() {values = dense<"0x005C2368001BA74300E6CE650075D65400A2A35B0091784C8074404A806D255F809DB75B8029E14980879C4380790D5E80353F4780DF9C4100D5C06800535E5100086D480094C978803ACA4480638345005A5A4880F7AC61002DD34780F537538012E662006EA058001FD64180AAA55580272B5D8058024E8094C56800B7345800B4E35780428A5F00554D5C00A55C5B00B4D74D807E3956804E865780F1AC7D"> : tensor<40xi32>} : () -> tensor<40xi32>
  %v24 = "tosa.const"() {values = dense<"0x26262626262626262626262626262626262726262626262626262626262626262626262626262627"> : tensor<40xi8>} : () -> tensor<40xi8>
  %v25 = "tosa.const"() {values = dense<"0x00000000"> : tensor<1xi32>} : () -> tensor<1xi32>
  %v26 = "tosa.const"() {values = dense<"0x00"> : tensor<1xi8>} : () -> tensor<1xi8>
  %v27 = tosa.rescale %v22, %v23, %v24, %v25, %v26 {input_unsigned = false, output_unsigned = false, per_channel = true, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x1x1x40xi32>, tensor<40xi32>, tensor<40xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x1x1x40xi8>
  %v28 = tosa.clamp %v27 {max_val = 127 : i8, min_val = 0 : i8} : (tensor<1x1x1x40xi8>) -> tensor<1x1x1x40xi8>
  %v29 = "tosa.const"() {values = dense<"0x00000040"> : tensor<1xi32>} : () -> tensor<1xi32>
  %v30 = "tosa.const"() {values = dense<"0x1E"> : tensor<1xi8>} : () -> tensor<1xi8>
  %v31 = "tosa.const"() {values = dense<"0xFD"> : tensor<1xi8>} : () -> tensor<1xi8>
  %v32 = "tosa.const"() {values = dense<"0x00000000"> : tensor<1xi32>} : () -> tensor<1xi32>
  %v33 = tosa.rescale %v5, %v29, %v30, %v31, %v32 {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x4x4x40xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<1x4x4x40xi32>
  %v34 = "tosa.const"() {values = dense<"0x00000040"> : tensor<1xi32>} : () -> tensor<1xi32>
  %v35 = "tosa.const"() {values = dense<"0x1E"> : tensor<1xi8>} : () -> tensor<1xi8>
  %v36 = "tosa.const"() {values = dense<"0x00"> : tensor<1xi8>} : () -> tensor<1xi8>
  %v37 = "tosa.const"() {values = dense<"0x00000000"> : tensor<1xi32>} : () -> tensor<1xi32>
  %v38 = tosa.rescale %v28, %v34, %v35, %v36, %v37 {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x1x1x40xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<1x1x1x40xi32>
  %v39 = "tosa.const"() {values = dense<"0x00"> : tensor<1xi8>} : () -> tensor<1xi8>
  %v40 = tosa.mul %v33, %v38, %v39 : (tensor<1x4x4x40xi32>, tensor<1x1x1x40xi32>, tensor<1xi8>) -> tensor<1x4x4x40xi32>
  %v41 = "tosa.const"() {values = dense<"0x006A1B74"> : tensor<1xi32>} : () -> tensor<1xi32>
  %v42 = "tosa.const"() {values = dense<"0x26"> : tensor<1xi8>} : () -> tensor<1xi8>
  %v43 = "tosa.const"() {values = dense<"0x00000000"> : tensor<1xi32>} : () -> tensor<1xi32>
  %v44 = "tosa.const"() {values = dense<"0xFC"> : tensor<1xi8>} : () -> tensor<1xi8>
  %v45 = tosa.rescale %v40, %v41, %v42, %v43, %v44 {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x4x4x40xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x4x4x40xi8>
  return %v45 : tensor<1x4x4x40xi8>
}
