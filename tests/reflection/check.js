#!/usr/bin/env node
// Independent reflection-client check of accelplan-server: does what a
// grpcurl user does. Every descriptor comes from the server's reflection
// service; no .proto file from the repository is read.
//
// Usage: node check.js --target 127.0.0.1:PORT --examples DIR
//                      [--timeout_ms N] [--ready_ms N]
// Prints one line per check and a final "N passed, M failed" line; exits 0
// only when nothing failed.
'use strict';

const fs = require('fs');
const path = require('path');
const grpc = require('@grpc/grpc-js');
const protobuf = require('protobufjs');
const {Client: ReflectionClient} = require('grpc-reflection-js');

const SERVICE = 'accelplan.v1.TrainingPlanner';
const HEALTH_SERVICE = 'grpc.health.v1.Health';
const EXPECTED_METHODS = {
  PlanTraining: ['accelplan.v1.PlanTrainingRequest',
    'accelplan.v1.PlanTrainingResponse'],
  ReviewPlan: ['accelplan.v1.ReviewPlanRequest',
    'accelplan.v1.ReviewPlanResponse'],
  ListAccelerators: ['accelplan.v1.ListAcceleratorsRequest',
    'accelplan.v1.ListAcceleratorsResponse'],
};

function parseArgs(argv) {
  const args = {target: '', examples: '', timeoutMs: 15000, readyMs: 30000};
  for (let i = 0; i < argv.length; i++) {
    const [key, inline] = argv[i].split('=', 2);
    const value = inline !== undefined ? inline : argv[++i];
    if (key === '--target') args.target = value;
    else if (key === '--examples') args.examples = value;
    else if (key === '--timeout_ms') args.timeoutMs = Number(value);
    else if (key === '--ready_ms') args.readyMs = Number(value);
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  if (!args.target || !args.examples) {
    throw new Error('usage: check.js --target HOST:PORT --examples DIR');
  }
  return args;
}

// ---------------------------------------------------------------------------
// Bookkeeping: one line per check, a summary at the end.
let passed = 0;
let failed = 0;

function pass(name, detail) {
  passed++;
  console.log(`PASS ${name}${detail ? ` — ${detail}` : ''}`);
}

function fail(name, detail) {
  failed++;
  console.log(`FAIL ${name} — ${detail}`);
}

function assert(cond, message) {
  if (!cond) throw new Error(message);
}

// Runs one named check; an exception is a failure, never a crash.
async function check(name, fn) {
  const start = process.hrtime.bigint();
  try {
    const detail = await fn();
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    pass(name, `${detail ? `${detail}, ` : ''}${ms.toFixed(1)} ms`);
  } catch (err) {
    fail(name, err && err.message ? err.message : String(err));
  }
}

// The reflection library sets no deadlines, so every call is raced against a
// timer: a hung server fails the check instead of hanging the run.
function withTimeout(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(
        () => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function describeReflectionError(err) {
  if (!err) return 'unknown reflection error';
  if (err.code !== undefined) return `${grpc.status[err.code]}: ${err.details}`;
  // grpc-reflection-js rejects with an empty Error on an error_response,
  // which is what "symbol not found" looks like.
  return err.message || 'error_response, e.g. symbol not found';
}

// ---------------------------------------------------------------------------
// Proto3 JSON mapping, driven only by the reflected descriptors.

// protoc's ToJsonName: drop each underscore and upper-case the next letter.
function jsonName(field) {
  if (field.options && field.options.json_name) return field.options.json_name;
  return field.name.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());
}

function fieldLookup(type) {
  if (!type._jsonLookup) {
    const map = new Map();
    for (const f of type.fieldsArray) {
      map.set(f.name, f);
      map.set(jsonName(f), f);
    }
    type._jsonLookup = map;
  }
  return type._jsonLookup;
}

const INT32_TYPES = new Set(['int32', 'sint32', 'sfixed32']);
const UINT32_TYPES = new Set(['uint32', 'fixed32']);
const INT64_TYPES = new Set(['int64', 'sint64', 'sfixed64']);
const UINT64_TYPES = new Set(['uint64', 'fixed64']);

function parseIntegral(value, where, unsigned, bits) {
  let text;
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) {
      throw new Error(`${where}: ${value} is not an integer`);
    }
    if (!Number.isSafeInteger(value)) {
      throw new Error(`${where}: ${value} is not exactly representable; ` +
          'quote it as a string');
    }
    text = String(value);
  } else if (typeof value === 'string' && /^-?\d+$/.test(value.trim())) {
    text = value.trim();
  } else {
    throw new Error(`${where}: expected an integer, got ${JSON.stringify(value)}`);
  }
  const big = BigInt(text);
  const min = unsigned ? 0n : -(1n << BigInt(bits - 1));
  const max = unsigned ? (1n << BigInt(bits)) - 1n : (1n << BigInt(bits - 1)) - 1n;
  if (big < min || big > max) {
    throw new Error(`${where}: ${text} is out of range for a ${bits}-bit ` +
        `${unsigned ? 'unsigned ' : ''}integer`);
  }
  return bits === 64 ? text : Number(text);
}

function parseFloating(value, where) {
  if (typeof value === 'number') return value;
  if (value === 'NaN') return NaN;
  if (value === 'Infinity') return Infinity;
  if (value === '-Infinity') return -Infinity;
  if (typeof value === 'string' && value.trim() !== '' &&
      Number.isFinite(Number(value))) {
    return Number(value);
  }
  throw new Error(`${where}: expected a number, got ${JSON.stringify(value)}`);
}

function scalarFromJson(field, value, where) {
  const t = field.type;
  if (field.resolvedType instanceof protobuf.Enum) {
    const e = field.resolvedType;
    if (typeof value === 'string') {
      if (!(value in e.values)) {
        throw new Error(`${where}: ${JSON.stringify(value)} is not a value ` +
            `of enum ${e.fullName.replace(/^\./, '')}`);
      }
      return e.values[value];
    }
    return parseIntegral(value, where, false, 32);
  }
  if (field.resolvedType instanceof protobuf.Type) {
    return messageFromJson(field.resolvedType, value, where);
  }
  if (t === 'double' || t === 'float') return parseFloating(value, where);
  if (INT32_TYPES.has(t)) return parseIntegral(value, where, false, 32);
  if (UINT32_TYPES.has(t)) return parseIntegral(value, where, true, 32);
  if (INT64_TYPES.has(t)) return parseIntegral(value, where, false, 64);
  if (UINT64_TYPES.has(t)) return parseIntegral(value, where, true, 64);
  if (t === 'bool') {
    if (typeof value !== 'boolean') {
      throw new Error(`${where}: expected true or false, got ${JSON.stringify(value)}`);
    }
    return value;
  }
  if (t === 'string') {
    if (typeof value !== 'string') {
      throw new Error(`${where}: expected a string, got ${JSON.stringify(value)}`);
    }
    return value;
  }
  if (t === 'bytes') {
    if (typeof value !== 'string') {
      throw new Error(`${where}: expected base64 bytes, got ${JSON.stringify(value)}`);
    }
    return Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  }
  throw new Error(`${where}: unsupported field type ${t}`);
}

function mapKeyFromJson(keyType, key, where) {
  if (keyType === 'string') return key;
  if (keyType === 'bool') {
    if (key !== 'true' && key !== 'false') throw new Error(`${where}: bad bool key`);
    return key;
  }
  // protobufjs keys integer maps by their decimal text.
  const bits = /64/.test(keyType) ? 64 : 32;
  return String(parseIntegral(key, where, /^u|^fixed/.test(keyType), bits));
}

// JSON object -> plain object keyed by proto field names with enum numbers;
// strict like protoc's parser: unknown fields and wrong types are errors.
function messageFromJson(type, json, where) {
  const typeName = type.fullName.replace(/^\./, '');
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    throw new Error(`${where || typeName}: expected a JSON object for ${typeName}`);
  }
  const lookup = fieldLookup(type);
  const out = {};
  const oneofSeen = new Map();
  for (const [key, value] of Object.entries(json)) {
    const field = lookup.get(key);
    const here = where ? `${where}.${key}` : key;
    if (!field) {
      throw new Error(`message type ${typeName} has no known field named ${key}`);
    }
    if (value === null) continue;  // JSON null means "not set".
    if (field.partOf) {
      const other = oneofSeen.get(field.partOf.name);
      if (other) {
        throw new Error(`${here}: oneof ${field.partOf.name} already set by ${other}`);
      }
      oneofSeen.set(field.partOf.name, key);
    }
    if (field.map) {
      if (typeof value !== 'object' || Array.isArray(value)) {
        throw new Error(`${here}: expected a JSON object for a map`);
      }
      const m = {};
      for (const [k, v] of Object.entries(value)) {
        m[mapKeyFromJson(field.keyType, k, `${here}[${k}]`)] =
            scalarFromJson(field, v, `${here}[${k}]`);
      }
      out[field.name] = m;
    } else if (field.repeated) {
      if (!Array.isArray(value)) {
        throw new Error(`${here}: expected a JSON array`);
      }
      out[field.name] = value.map(
          (v, i) => scalarFromJson(field, v, `${here}[${i}]`));
    } else {
      out[field.name] = scalarFromJson(field, value, here);
    }
  }
  return out;
}

function encodeFromJson(type, json) {
  const plain = messageFromJson(type, json, '');
  const message = type.fromObject(plain);
  const problem = type.verify(message);
  if (problem) throw new Error(`${type.name}: ${problem}`);
  return type.encode(message).finish();
}

// Message -> proto3 JSON (lowerCamelCase keys, enum names, int64 as strings).
function messageToJson(type, message) {
  const out = {};
  for (const field of type.fieldsArray) {
    // decode() sets only what was on the wire; the rest are prototype defaults.
    if (!Object.prototype.hasOwnProperty.call(message, field.name)) continue;
    const value = message[field.name];
    if (value === null || value === undefined) continue;
    const conv = (v) => {
      if (field.resolvedType instanceof protobuf.Type) {
        return messageToJson(field.resolvedType, v);
      }
      if (field.resolvedType instanceof protobuf.Enum) {
        return field.resolvedType.valuesById[v] !== undefined ?
            field.resolvedType.valuesById[v] : v;
      }
      if (protobuf.util.Long && protobuf.util.Long.isLong(v)) return v.toString();
      if (Buffer.isBuffer(v) || v instanceof Uint8Array) {
        return Buffer.from(v).toString('base64');
      }
      return v;
    };
    if (field.map) {
      const m = {};
      for (const [k, v] of Object.entries(value)) m[k] = conv(v);
      if (Object.keys(m).length) out[jsonName(field)] = m;
    } else if (field.repeated) {
      if (value.length) out[jsonName(field)] = value.map(conv);
    } else {
      out[jsonName(field)] = conv(value);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------
// Dynamic unary calls through a generic grpc-js client.

function unary(client, root, serviceName, methodName, requestJson, timeoutMs) {
  const service = root.lookupService(serviceName);
  const method = service.methods[methodName];
  if (!method) throw new Error(`${serviceName} has no method ${methodName}`);
  method.resolve();
  const reqType = method.resolvedRequestType;
  const resType = method.resolvedResponseType;
  const bytes = encodeFromJson(reqType, requestJson);
  return new Promise((resolve, reject) => {
    client.makeUnaryRequest(
        `/${serviceName}/${methodName}`,
        (b) => Buffer.from(b),
        (buf) => resType.decode(buf),
        bytes,
        new grpc.Metadata(),
        {deadline: Date.now() + timeoutMs},
        (err, response) => {
          if (err) reject(err);
          else resolve(messageToJson(resType, response));
        });
  });
}

function grpcErrorText(err) {
  if (err && err.code !== undefined) {
    return `${grpc.status[err.code] || err.code}: ${err.details}`;
  }
  return err && err.message ? err.message : String(err);
}

function rpcForExample(file) {
  const base = path.basename(file).toLowerCase();
  if (base.includes('review')) return 'ReviewPlan';
  if (base.includes('catalog')) return 'ListAccelerators';
  return 'PlanTraining';
}

// grpcurl-style one-line summary of what a response says.
function summarise(methodName, response) {
  if (methodName === 'ListAccelerators') {
    const lists = Object.values(response).filter(Array.isArray);
    const n = lists.length ? Math.max(...lists.map((l) => l.length)) : 0;
    return `${n} entries`;
  }
  if (methodName === 'ReviewPlan') {
    const lists = Object.values(response).filter(Array.isArray);
    const n = lists.length ? Math.max(...lists.map((l) => l.length)) : 0;
    return `${n} verdicts`;
  }
  const keys = Object.keys(response).length;
  return `${keys} top-level fields`;
}

function describeType(type) {
  const lines = [`message ${type.name} {`];
  for (const f of type.fieldsArray) {
    let t = f.resolvedType ? f.resolvedType.fullName.replace(/^\./, '') : f.type;
    if (f.map) t = `map<${f.keyType}, ${t}>`;
    else if (f.repeated) t = `repeated ${t}`;
    lines.push(`  ${t} ${f.name} = ${f.id};`);
  }
  lines.push('}');
  return lines.join('\n');
}

// The published grpc.health.v1 wire format (field numbers and enum values of
// the public health.proto), used only where reflection has no descriptor.
function publishedHealthRoot() {
  const root = protobuf.Root.fromJSON({nested: {grpc: {nested: {health:
    {nested: {v1: {nested: {
      HealthCheckRequest: {fields: {service: {type: 'string', id: 1}}},
      HealthCheckResponse: {
        fields: {status: {type: 'ServingStatus', id: 1}},
        nested: {ServingStatus: {values: {
          UNKNOWN: 0, SERVING: 1, NOT_SERVING: 2, SERVICE_UNKNOWN: 3}}},
      },
      Health: {methods: {Check: {requestType: 'HealthCheckRequest',
        responseType: 'HealthCheckResponse'}}},
    }}}}}}}});
  root.resolveAll();
  return root;
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

// ---------------------------------------------------------------------------

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const T = args.timeoutMs;
  const creds = grpc.credentials.createInsecure();
  const reflection = new ReflectionClient(args.target, creds);
  const client = new grpc.Client(args.target, creds);

  // Readiness as a Kubernetes gRPC probe sees it: Health/Check for the
  // planner service turns SERVING once the catalog is loaded. Polled so a
  // slow start is not reported as many failures.
  await check('server ready (health SERVING)', async () => {
    const deadline = Date.now() + args.readyMs;
    const probeRoot = publishedHealthRoot();
    let last = 'no answer';
    while (Date.now() < deadline) {
      try {
        const r = await unary(client, probeRoot, HEALTH_SERVICE, 'Check',
            {service: SERVICE}, Math.min(T, 2000));
        if (r.status === 'SERVING') return args.target;
        last = `status ${r.status || 'UNKNOWN'}`;
      } catch (err) {
        last = grpcErrorText(err);
      }
      await sleep(200);
    }
    throw new Error(`not SERVING within ${args.readyMs} ms (last: ${last})`);
  });

  let services = [];
  await check('reflection: list services', async () => {
    try {
      services = await withTimeout(reflection.listServices(), T, 'ListServices');
    } catch (err) {
      throw new Error(describeReflectionError(err));
    }
    for (const s of [SERVICE, HEALTH_SERVICE]) {
      assert(services.includes(s), `${s} not listed (got ${services.join(', ')})`);
    }
    return services.join(', ');
  });

  let root = null;
  await check(`reflection: describe ${SERVICE}`, async () => {
    try {
      root = await withTimeout(
          reflection.fileContainingSymbol(SERVICE), T, 'FileContainingSymbol');
    } catch (err) {
      root = null;
      throw new Error(describeReflectionError(err));
    }
    root.resolveAll();
    const service = root.lookupService(SERVICE);
    const names = Object.keys(service.methods);
    for (const [name, [req, res]] of Object.entries(EXPECTED_METHODS)) {
      const m = service.methods[name];
      assert(m, `method ${name} missing (got ${names.join(', ')})`);
      const gotReq = m.resolvedRequestType.fullName.replace(/^\./, '');
      const gotRes = m.resolvedResponseType.fullName.replace(/^\./, '');
      assert(gotReq === req && gotRes === res,
          `${name}(${gotReq}) returns (${gotRes}); want ${name}(${req}) returns (${res})`);
      assert(!m.requestStream && !m.responseStream, `${name} is not unary`);
    }
    return `methods ${names.join(', ')}`;
  });

  await check('reflection: describe accelplan.v1.PlanTrainingRequest',
      async () => {
        // A fresh lookup by message symbol, as `grpcurl describe` does.
        let msgRoot;
        try {
          msgRoot = await withTimeout(reflection.fileContainingSymbol(
              'accelplan.v1.PlanTrainingRequest'), T, 'FileContainingSymbol');
        } catch (err) {
          throw new Error(describeReflectionError(err));
        }
        msgRoot.resolveAll();
        const type = msgRoot.lookupType('accelplan.v1.PlanTrainingRequest');
        console.log(describeType(type).replace(/^/gm, '  | '));
        const workload = type.fieldsArray.find((f) => f.name === 'workload');
        assert(workload && workload.resolvedType &&
            workload.resolvedType.fullName === '.accelplan.v1.Workload',
        'PlanTrainingRequest has no workload field of type accelplan.v1.Workload');
        assert(workload.resolvedType.fields.parameter_count,
            'accelplan.v1.Workload has no parameter_count field');
        return `${type.fieldsArray.length} fields`;
      });

  // Health: grpcurl users call grpc.health.v1.Health/Check. Prefer the
  // reflected descriptor; if the server does not serve one (gRPC C++'s
  // built-in health service registers no descriptor) fall back to the
  // published grpc.health.v1 wire format, and say so.
  await check(`${HEALTH_SERVICE}/Check ${SERVICE}`, async () => {
    let healthRoot;
    let source = 'reflected descriptor';
    try {
      healthRoot = await withTimeout(
          reflection.fileContainingSymbol(HEALTH_SERVICE), T,
          'FileContainingSymbol');
      healthRoot.resolveAll();
    } catch (err) {
      // Not a failure of the contract (the service answers), but grpcurl
      // users cannot call it by name: say so loudly.
      console.log(`WARN reflection has no descriptor for ${HEALTH_SERVICE} ` +
          `(${describeReflectionError(err)}): \`grpcurl ... ` +
          `${HEALTH_SERVICE}/Check\` fails to resolve the symbol; checked ` +
          'through the published grpc.health.v1 wire format instead');
      source = 'published wire format';
      healthRoot = publishedHealthRoot();
      healthRoot.resolveAll();
    }
    let response;
    try {
      response = await unary(client, healthRoot, HEALTH_SERVICE, 'Check',
          {service: SERVICE}, T);
    } catch (err) {
      throw new Error(grpcErrorText(err));
    }
    assert(response.status === 'SERVING',
        `status ${JSON.stringify(response.status || 'UNKNOWN')}, want SERVING`);
    return `SERVING (${source})`;
  });

  const files = fs.readdirSync(args.examples)
      .filter((f) => f.endsWith('.json')).sort();
  if (files.length === 0) {
    fail('examples', `no *.json files in ${args.examples}`);
  }
  // The invalid request is the first accepted plan with one field broken,
  // so INVALID_ARGUMENT can only come from that field.
  let firstPlan = null;
  let invalidError = null;
  for (const f of files) {
    const method = rpcForExample(f);
    await check(`${method} examples/${f}`, async () => {
      assert(root, 'no reflected descriptors (see above)');
      let request;
      try {
        request = JSON.parse(fs.readFileSync(path.join(args.examples, f), 'utf8'));
      } catch (err) {
        throw new Error(`not valid JSON: ${err.message}`);
      }
      let response;
      try {
        response = await unary(client, root, SERVICE, method, request, T);
      } catch (err) {
        throw new Error(grpcErrorText(err));
      }
      assert(typeof response.catalogVersion === 'string' &&
          response.catalogVersion !== '',
      'response has no catalogVersion');
      if (method === 'PlanTraining' && !firstPlan) firstPlan = request;
      return `OK, catalogVersion=${response.catalogVersion}, ` +
          summarise(method, response);
    });
  }

  await check('PlanTraining workload.parameterCount=-1 → INVALID_ARGUMENT',
      async () => {
        assert(root, 'no reflected descriptors (see above)');
        const request = JSON.parse(JSON.stringify(firstPlan || {}));
        request.workload = Object.assign({}, request.workload,
            {parameterCount: -1});
        let response;
        try {
          response = await unary(client, root, SERVICE, 'PlanTraining',
              request, T);
        } catch (err) {
          invalidError = err;
          assert(err.code === grpc.status.INVALID_ARGUMENT,
              `got ${grpcErrorText(err)}, want INVALID_ARGUMENT`);
          assert(/parameter_count|parameterCount/.test(err.details || ''),
              `message does not name parameter_count: ${err.details}`);
          return `INVALID_ARGUMENT: ${err.details}`;
        }
        throw new Error(`got OK (catalogVersion=${response.catalogVersion}), ` +
            'want INVALID_ARGUMENT');
      });

  // grpcurl prints the google.rpc.Status trailer, resolving the Any details
  // through reflection; do the same and require the BadRequest violation.
  await check('INVALID_ARGUMENT details: google.rpc.BadRequest via reflection',
      async () => {
        assert(invalidError, 'no INVALID_ARGUMENT error to inspect (see above)');
        const raw = invalidError.metadata &&
            invalidError.metadata.get('grpc-status-details-bin');
        assert(raw && raw.length, 'no grpc-status-details-bin trailer');
        const resolveType = async (name) => {
          let r;
          try {
            r = await withTimeout(reflection.fileContainingSymbol(name), T,
                'FileContainingSymbol');
          } catch (err) {
            throw new Error(`${name}: ${describeReflectionError(err)}`);
          }
          r.resolveAll();
          return r.lookupType(name);
        };
        const statusType = await resolveType('google.rpc.Status');
        const status = messageToJson(statusType, statusType.decode(raw[0]));
        assert(status.code === grpc.status.INVALID_ARGUMENT,
            `google.rpc.Status.code ${status.code}, want 3`);
        const fields = [];
        for (const any of status.details || []) {
          const typeName = String(any.typeUrl || '').replace(/^.*\//, '');
          const type = await resolveType(typeName);
          const detail = messageToJson(type,
              type.decode(Buffer.from(any.value || '', 'base64')));
          for (const v of detail.fieldViolations || []) fields.push(v.field);
        }
        assert(fields.some((f) => /parameter_count|parameterCount/.test(f)),
            `no BadRequest field violation for parameter_count ` +
            `(got ${JSON.stringify(fields)})`);
        return `field violations ${fields.join(', ')}`;
      });

  client.close();
  reflection.grpcClient.close();
}

// Reused by tests/docs/grpcurl_examples.js (the README's grpcurl examples):
// the same reflection-driven JSON mapping and unary calls.
module.exports = {
  grpc, protobuf, ReflectionClient, parseIntegral, encodeFromJson,
  messageToJson, unary, grpcErrorText, describeReflectionError, describeType,
  withTimeout, publishedHealthRoot,
};

if (require.main === module) {
  // Hard stop: whatever hangs, the run ends.
  const hardStop = setTimeout(() => {
    fail('overall', 'check did not finish within 90 s');
    console.log(`${passed} passed, ${failed} failed`);
    process.exit(1);
  }, 90000);
  hardStop.unref();

  main().then(() => {
    console.log(`${passed} passed, ${failed} failed`);
    process.exit(failed === 0 && passed > 0 ? 0 : 1);
  }, (err) => {
    fail('check.js', err && err.stack ? err.stack : String(err));
    console.log(`${passed} passed, ${failed} failed`);
    process.exit(1);
  });
}
