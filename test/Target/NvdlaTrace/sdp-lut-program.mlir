// dla-translate --dla-to-nvdla-trace on an SDP whose Y (EW) stage reads the
// lookup table (nv_large). Expected register values composed by hand from
// opendla.h (nv_large): S_LUT_ACCESS_CFG LUT_TABLE_ID bit 16 (LE 0, LO 1),
// LUT_ACCESS_TYPE bit 17 (WRITE 1); S_LUT_ACCESS_DATA 16 bits;
// S_LUT_CFG LUT_LE_FUNCTION bit 0 (EXPONENT 0), UFLOW / OFLOW / HYBRID
// priority bits 4, 5, 6 (LO 1); S_LUT_INFO LE_INDEX_OFFSET bits 0-7,
// LE_INDEX_SELECT 8-15, LO_INDEX_SELECT 16-23; 32-bit starts and ends;
// slope scales 16 + 16 bits (uflow low), shifts 5 + 5 bits; D_DP_EW_CFG
// EW_BYPASS bit 0, ALU_BYPASS 1, MUL_BYPASS 4, LUT_BYPASS 6. The order is
// NVIDIA's firmware's (common.c update_lut): LE's 65 entries, LO's 257,
// then the table registers.
//
// RUN: rm -rf %t && mkdir -p %t/data
// RUN: %python -c "open('%t/data/arg0.bin', 'wb').write(bytes(range(32)) * 4); open('%t/data/result0.bin', 'wb').write(bytes(128))"
// RUN: dla-translate --dla-to-nvdla-trace --nvdla-trace-dir=%t/prog --nvdla-trace-data=%t/data %s
// RUN: FileCheck %s --input-file=%t/prog/prog.cfg
// RUN: grep -c 'S_LUT_ACCESS_DATA_0' %t/prog/prog.cfg | FileCheck %s --check-prefix=COUNT

// EW used, its ALU and MUL bypassed, the LUT not: 2 | 16.
// CHECK: reg_write(NVDLA_SDP.D_DP_EW_CFG_0, 0x12);
// CHECK-NEXT: reg_write(NVDLA_SDP.S_LUT_ACCESS_CFG_0, 0x20000);
// LE[0] = -1 in 16 bits, then 1, 2, ...
// CHECK-NEXT: reg_write(NVDLA_SDP.S_LUT_ACCESS_DATA_0, 0xffff);
// CHECK-NEXT: reg_write(NVDLA_SDP.S_LUT_ACCESS_DATA_0, 0x1);
// CHECK: reg_write(NVDLA_SDP.S_LUT_ACCESS_DATA_0, 0x40);
// CHECK-NEXT: reg_write(NVDLA_SDP.S_LUT_ACCESS_CFG_0, 0x30000);
// LO[i] = 1000 + i.
// CHECK-NEXT: reg_write(NVDLA_SDP.S_LUT_ACCESS_DATA_0, 0x3e8);
// CHECK: reg_write(NVDLA_SDP.S_LUT_ACCESS_DATA_0, 0x4e8);
// Exponent LE, uflow and hybrid from LO: 0x10 | 0x40.
// CHECK-NEXT: reg_write(NVDLA_SDP.S_LUT_CFG_0, 0x50);
// LE index offset -3 (0xfd), LO index select 2 << 16.
// CHECK-NEXT: reg_write(NVDLA_SDP.S_LUT_INFO_0, 0x200fd);
// CHECK-NEXT: reg_write(NVDLA_SDP.S_LUT_LE_START_0, 0xfffffffb);
// CHECK-NEXT: reg_write(NVDLA_SDP.S_LUT_LE_END_0, 0x3e8);
// CHECK-NEXT: reg_write(NVDLA_SDP.S_LUT_LO_START_0, 0x0);
// CHECK-NEXT: reg_write(NVDLA_SDP.S_LUT_LO_END_0, 0x400);
// Scales: uflow -2 (0xfffe), oflow 3 << 16; shifts: uflow -1 (0x1f), oflow 2 << 5.
// CHECK-NEXT: reg_write(NVDLA_SDP.S_LUT_LE_SLOPE_SCALE_0, 0x3fffe);
// CHECK-NEXT: reg_write(NVDLA_SDP.S_LUT_LE_SLOPE_SHIFT_0, 0x5f);
// CHECK-NEXT: reg_write(NVDLA_SDP.S_LUT_LO_SLOPE_SCALE_0, 0x0);
// CHECK-NEXT: reg_write(NVDLA_SDP.S_LUT_LO_SLOPE_SHIFT_0, 0x0);
// CHECK: reg_write(NVDLA_SDP.D_OP_ENABLE_0, 0x1);

// 65 + 257 table entries.
// COUNT: 322

!f = tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_large>>
module attributes {dla.target = #dla.target<nvdla, nv_large>} {
func.func @layer(%x: !f) -> !f {
  %y = dla.sdp offline %x ew <lut = <le_function = exponent, le = [-1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64], lo = [1000, 1001, 1002, 1003, 1004, 1005, 1006, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014, 1015, 1016, 1017, 1018, 1019, 1020, 1021, 1022, 1023, 1024, 1025, 1026, 1027, 1028, 1029, 1030, 1031, 1032, 1033, 1034, 1035, 1036, 1037, 1038, 1039, 1040, 1041, 1042, 1043, 1044, 1045, 1046, 1047, 1048, 1049, 1050, 1051, 1052, 1053, 1054, 1055, 1056, 1057, 1058, 1059, 1060, 1061, 1062, 1063, 1064, 1065, 1066, 1067, 1068, 1069, 1070, 1071, 1072, 1073, 1074, 1075, 1076, 1077, 1078, 1079, 1080, 1081, 1082, 1083, 1084, 1085, 1086, 1087, 1088, 1089, 1090, 1091, 1092, 1093, 1094, 1095, 1096, 1097, 1098, 1099, 1100, 1101, 1102, 1103, 1104, 1105, 1106, 1107, 1108, 1109, 1110, 1111, 1112, 1113, 1114, 1115, 1116, 1117, 1118, 1119, 1120, 1121, 1122, 1123, 1124, 1125, 1126, 1127, 1128, 1129, 1130, 1131, 1132, 1133, 1134, 1135, 1136, 1137, 1138, 1139, 1140, 1141, 1142, 1143, 1144, 1145, 1146, 1147, 1148, 1149, 1150, 1151, 1152, 1153, 1154, 1155, 1156, 1157, 1158, 1159, 1160, 1161, 1162, 1163, 1164, 1165, 1166, 1167, 1168, 1169, 1170, 1171, 1172, 1173, 1174, 1175, 1176, 1177, 1178, 1179, 1180, 1181, 1182, 1183, 1184, 1185, 1186, 1187, 1188, 1189, 1190, 1191, 1192, 1193, 1194, 1195, 1196, 1197, 1198, 1199, 1200, 1201, 1202, 1203, 1204, 1205, 1206, 1207, 1208, 1209, 1210, 1211, 1212, 1213, 1214, 1215, 1216, 1217, 1218, 1219, 1220, 1221, 1222, 1223, 1224, 1225, 1226, 1227, 1228, 1229, 1230, 1231, 1232, 1233, 1234, 1235, 1236, 1237, 1238, 1239, 1240, 1241, 1242, 1243, 1244, 1245, 1246, 1247, 1248, 1249, 1250, 1251, 1252, 1253, 1254, 1255, 1256], le_start = -5, le_end = 1000, lo_start = 0, lo_end = 1024, le_index_offset = -3, lo_index_select = 2, le_slope_uflow_scale = -2, le_slope_uflow_shift = -1, le_slope_oflow_scale = 3, le_slope_oflow_shift = 2, uflow_priority = lo, oflow_priority = le, hybrid_priority = lo>> : !f -> !f
  return %y : !f
}
}
