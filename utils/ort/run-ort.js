#!/usr/bin/env node
// Runs an ONNX model with onnxruntime-node on .npy inputs and writes each
// output as .npy: the numeric reference for dla-run-onnx (test-only).
//
//   node run-ort.js MODEL.onnx OUT_DIR IN0.npy [IN1.npy ...] [--repeat N] [--no-optimize]
//
// Inputs bind to the model's inputs in order; outputs are written as
// OUT_DIR/<index>.npy. With --repeat N the model runs N more times after a
// warm-up and the mean seconds per run is printed as "ort_seconds S".
// With --no-optimize graph optimizations are off: a QDQ model then runs as
// float fake-quantization (no fusion into QLinearConv and the like).
// ONNXRUNTIME_NODE points at the installed onnxruntime-node package.
'use strict';
const fs = require('fs');
const path = require('path');
const ort = require(process.env.ONNXRUNTIME_NODE || 'onnxruntime-node');

const DTYPES = {'<f4': 'float32', '<f8': 'float64', '|i1': 'int8', '|u1': 'uint8',
                '<i2': 'int16', '<i4': 'int32', '<i8': 'int64', '<f2': 'float16'};
const ARRAYS = {float32: Float32Array, float64: Float64Array, int8: Int8Array, uint8: Uint8Array,
                int16: Int16Array, int32: Int32Array, int64: BigInt64Array, float16: Uint16Array};

function readNpy(file) {
  const buf = fs.readFileSync(file);
  if (buf.toString('latin1', 1, 6) !== 'NUMPY') throw new Error(`${file}: not a .npy file`);
  const major = buf[6];
  const headerLen = major === 1 ? buf.readUInt16LE(8) : buf.readUInt32LE(8);
  const start = (major === 1 ? 10 : 12);
  const header = buf.toString('latin1', start, start + headerLen);
  const descr = /'descr':\s*'([^']+)'/.exec(header)[1];
  if (/'fortran_order':\s*True/.test(header)) throw new Error(`${file}: Fortran order`);
  const shape = /'shape':\s*\(([^)]*)\)/.exec(header)[1].split(',').filter(s => s.trim())
      .map(s => parseInt(s, 10));
  const type = DTYPES[descr];
  if (!type) throw new Error(`${file}: unsupported dtype ${descr}`);
  const body = buf.subarray(start + headerLen);
  const copy = new Uint8Array(body.length);
  copy.set(body);
  return new ort.Tensor(type, new ARRAYS[type](copy.buffer), shape);
}

function writeNpy(file, tensor) {
  const descr = Object.keys(DTYPES).find(k => DTYPES[k] === tensor.type);
  const shape = tensor.dims.length === 1 ? `(${tensor.dims[0]},)` : `(${tensor.dims.join(', ')})`;
  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': ${shape}, }`;
  const pad = 64 - ((10 + header.length + 1) % 64);
  header += ' '.repeat(pad % 64) + '\n';
  const head = Buffer.alloc(10);
  head.write('\x93NUMPY', 0, 'latin1');
  head[6] = 1; head[7] = 0;
  head.writeUInt16LE(header.length, 8);
  const data = Buffer.from(tensor.data.buffer, tensor.data.byteOffset, tensor.data.byteLength);
  fs.writeFileSync(file, Buffer.concat([head, Buffer.from(header, 'latin1'), data]));
}

async function main() {
  const args = process.argv.slice(2);
  let repeat = 0;
  const r = args.indexOf('--repeat');
  if (r >= 0) { repeat = parseInt(args[r + 1], 10); args.splice(r, 2); }
  const o = args.indexOf('--no-optimize');
  if (o >= 0) args.splice(o, 1);
  const [model, outDir, ...inputs] = args;
  if (!model || !outDir) throw new Error('usage: run-ort.js MODEL.onnx OUT_DIR IN.npy... [--repeat N] [--no-optimize]');
  // One thread: the reference execution it is compared with is single-threaded.
  const session = await ort.InferenceSession.create(model, {intraOpNumThreads: 1,
                                                            interOpNumThreads: 1,
      graphOptimizationLevel: o >= 0 ? 'disabled' : 'all'});
  if (inputs.length !== session.inputNames.length)
    throw new Error(`model has ${session.inputNames.length} inputs, got ${inputs.length} files`);
  const feeds = {};
  session.inputNames.forEach((name, i) => { feeds[name] = readNpy(inputs[i]); });
  const results = await session.run(feeds);
  fs.mkdirSync(outDir, {recursive: true});
  session.outputNames.forEach((name, i) => writeNpy(path.join(outDir, `${i}.npy`), results[name]));
  if (repeat > 0) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < repeat; ++i) await session.run(feeds);
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9 / repeat;
    console.log(`ort_seconds ${seconds}`);
  }
}

main().catch(e => { console.error(`run-ort.js: ${e.message}`); process.exit(1); });
