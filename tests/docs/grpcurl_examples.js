#!/usr/bin/env node
// Replays every grpcurl example of README.md (fenced blocks marked
// `sh grpcurl`) the way grpcurl does: every descriptor comes from the
// server's reflection service (no fallback, no .proto file read), requests
// are strict protobuf JSON (`-d '...'` or `-d @ < FILE`). Reuses the
// reflection-driven JSON mapping and calls of tests/reflection/check.js.
//
// Usage: node grpcurl_examples.js --target 127.0.0.1:PORT --readme README.md
//                                 [--timeout_ms N]
// The documented address (localhost:50051 or 127.0.0.1:50051) is replaced by
// --target; `< FILE` is read relative to the README's folder. Prints one
// PASS/FAIL line per example and "N passed, M failed"; exits 0 only when
// every example passed.
'use strict';

const fs = require('fs');
const path = require('path');
const {
  grpc, ReflectionClient, unary, grpcErrorText, describeReflectionError,
  describeType, withTimeout,
} = require('../reflection/check.js');

const DOC_ADDRESS = /^(localhost|127\.0\.0\.1):50051$/;
const HEALTH_SERVICE = 'grpc.health.v1.Health';

function parseArgs(argv) {
  const args = {target: '', readme: '', timeoutMs: 15000};
  for (let i = 0; i < argv.length; i++) {
    const [key, inline] = argv[i].split('=', 2);
    const value = inline !== undefined ? inline : argv[++i];
    if (key === '--target') args.target = value;
    else if (key === '--readme') args.readme = value;
    else if (key === '--timeout_ms') args.timeoutMs = Number(value);
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  if (!args.target || !args.readme) {
    throw new Error('usage: grpcurl_examples.js --target HOST:PORT --readme FILE');
  }
  return args;
}

// The commands of the `sh grpcurl` blocks: continuation lines joined,
// blank and comment lines dropped; each as {line, text}.
function readmeCommands(readmeText) {
  const commands = [];
  let info = null;
  let pending = '';
  let first = 0;
  readmeText.split('\n').forEach((raw, index) => {
    const line = raw.replace(/\r$/, '');
    const fence = /^```\s*(.*?)\s*$/.exec(line);
    if (info === null) {
      if (fence) info = fence[1];
      return;
    }
    if (fence && fence[1] === '') {
      if (pending) throw new Error(`README:${first}: dangling continuation`);
      info = null;
      return;
    }
    if (info !== 'sh grpcurl') return;
    if (!pending && (!line.trim() || line.trim().startsWith('#'))) return;
    if (!pending) first = index + 1;
    if (/\\\s*$/.test(line)) {
      pending += line.replace(/\\\s*$/, ' ');
      return;
    }
    commands.push({line: first, text: (pending + line).replace(/\s+/g, ' ').trim()});
    pending = '';
  });
  return commands;
}

// POSIX-shell words for what the examples use: '…', "…" with \-escapes,
// bare words, and `<` redirection.
function shellWords(text) {
  const words = [];
  let i = 0;
  while (i < text.length) {
    while (i < text.length && /\s/.test(text[i])) i++;
    if (i >= text.length) break;
    if (text[i] === '#') break;  // A trailing comment.
    if (text[i] === '<') {
      words.push({op: '<'});
      i++;
      continue;
    }
    let word = '';
    while (i < text.length && !/[\s<]/.test(text[i])) {
      const c = text[i];
      if (c === '\'') {
        const end = text.indexOf('\'', i + 1);
        if (end < 0) throw new Error('unterminated \' quote');
        word += text.slice(i + 1, end);
        i = end + 1;
      } else if (c === '"') {
        i++;
        while (i < text.length && text[i] !== '"') {
          if (text[i] === '\\' && /["\\$`]/.test(text[i + 1] || '')) i++;
          word += text[i++];
        }
        if (i >= text.length) throw new Error('unterminated " quote');
        i++;
      } else if (c === '\\') {
        word += text[i + 1] || '';
        i += 2;
      } else {
        word += c;
        i++;
      }
    }
    words.push(word);
  }
  return words;
}

// grpcurl's command line -> {address, verb, symbol, data}.
function parseGrpcurl(text, baseDir) {
  const words = shellWords(text);
  if (words[0] !== 'grpcurl') throw new Error('not a grpcurl command');
  const positional = [];
  let data = null;
  let stdin = null;
  for (let i = 1; i < words.length; i++) {
    const w = words[i];
    if (typeof w === 'object') {
      stdin = words[++i];
      if (typeof stdin !== 'string') throw new Error('`<` without a file');
    } else if (w === '-d' || w === '-data') {
      data = words[++i];
      if (typeof data !== 'string') throw new Error('-d without a value');
    } else if (w === '-plaintext') {
      // The only transport flag the examples use.
    } else if (w.startsWith('-')) {
      throw new Error(`grpcurl flag ${w} is not supported by this replay`);
    } else {
      positional.push(w);
    }
  }
  if (data === '@') {
    if (!stdin) throw new Error('`-d @` without `< FILE`');
    data = fs.readFileSync(path.join(baseDir, stdin), 'utf8');
  } else if (stdin) {
    throw new Error('stdin redirected without `-d @`');
  }
  const [address, verb, ...rest] = positional;
  if (!address || !verb) throw new Error('no address and verb/method');
  if (!DOC_ADDRESS.test(address)) {
    throw new Error(`address ${address} is not the documented localhost:50051`);
  }
  if (verb === 'list' || verb === 'describe') {
    if (rest.length > 1 || data !== null) throw new Error(`bad ${verb} usage`);
    if (verb === 'describe' && rest.length === 0) {
      throw new Error('describe without a symbol is not replayed');
    }
    return {verb, symbol: rest[0] || null, data: null};
  }
  if (rest.length || !/^[\w.]+\/\w+$/.test(verb)) {
    throw new Error(`${verb}: expected SERVICE/METHOD`);
  }
  return {verb: 'call', symbol: verb, data: data === null ? '{}' : data};
}

function indent(text) {
  return text.replace(/^/gm, '  | ');
}

// What grpcurl prints for a response, shortened.
function preview(json) {
  const text = JSON.stringify(json, null, 2);
  const lines = text.split('\n');
  return lines.length > 12 ?
      `${lines.slice(0, 12).join('\n')}\n… (${lines.length} lines)` : text;
}

async function resolveSymbol(reflection, symbol, T) {
  let root;
  try {
    root = await withTimeout(reflection.fileContainingSymbol(symbol), T,
        'FileContainingSymbol');
  } catch (err) {
    throw new Error(`grpcurl would fail: "Failed to resolve symbol ` +
        `${symbol}" (reflection: ${describeReflectionError(err)})` +
        (symbol.startsWith(HEALTH_SERVICE) && !(err && err.code !== undefined) ?
          '; the server must link the ' +
        'generated grpc/health/v1/health.proto so reflection serves its ' +
        'descriptor' : ''));
  }
  root.resolveAll();
  return root;
}

async function replay(example, ctx) {
  const parsed = parseGrpcurl(example.text, ctx.baseDir);
  const T = ctx.timeoutMs;
  if (parsed.verb === 'list') {
    if (parsed.symbol) {
      const root = await resolveSymbol(ctx.reflection, parsed.symbol, T);
      const methods = Object.keys(root.lookupService(parsed.symbol).methods);
      if (!methods.length) throw new Error(`${parsed.symbol} has no methods`);
      console.log(indent(methods.map((m) => `${parsed.symbol}.${m}`).join('\n')));
      return `${methods.length} methods`;
    }
    let services;
    try {
      services = await withTimeout(ctx.reflection.listServices(), T,
          'ListServices');
    } catch (err) {
      throw new Error(describeReflectionError(err));
    }
    if (!services.length) throw new Error('no services listed');
    console.log(indent(services.join('\n')));
    return `${services.length} services`;
  }
  if (parsed.verb === 'describe') {
    const root = await resolveSymbol(ctx.reflection, parsed.symbol, T);
    const found = root.lookup(parsed.symbol);
    if (!found) throw new Error(`${parsed.symbol} not in the reflected file`);
    if (found.methods) {
      const lines = Object.values(found.methods).map((m) =>
        `  rpc ${m.name} ( ${m.resolvedRequestType.fullName.slice(1)} ) ` +
        `returns ( ${m.resolvedResponseType.fullName.slice(1)} );`);
      console.log(indent(`service ${found.name} {\n${lines.join('\n')}\n}`));
      return `service, ${lines.length} methods`;
    }
    if (found.fieldsArray) {
      console.log(indent(describeType(found)));
      return `message, ${found.fieldsArray.length} fields`;
    }
    if (found.values) {
      console.log(indent(Object.keys(found.values).join('\n')));
      return `enum, ${Object.keys(found.values).length} values`;
    }
    throw new Error(`${parsed.symbol} is not a service, message or enum`);
  }
  const [serviceName, methodName] = parsed.symbol.split('/');
  const root = await resolveSymbol(ctx.reflection, serviceName, T);
  let request;
  try {
    request = JSON.parse(parsed.data);
  } catch (err) {
    throw new Error(`request is not valid JSON: ${err.message}`);
  }
  let response;
  try {
    response = await unary(ctx.client, root, serviceName, methodName, request, T);
  } catch (err) {
    throw new Error(grpcErrorText(err));
  }
  console.log(indent(preview(response)));
  const resType = root.lookupService(serviceName).methods[methodName]
      .resolvedResponseType;
  if (resType.fields.catalog_version && !response.catalogVersion) {
    throw new Error('response has no catalogVersion');
  }
  if (serviceName === HEALTH_SERVICE && response.status !== 'SERVING') {
    throw new Error(`status ${response.status || 'UNKNOWN'}, want SERVING`);
  }
  return 'OK';
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const readme = path.resolve(args.readme);
  const examples = readmeCommands(fs.readFileSync(readme, 'utf8'));
  const creds = grpc.credentials.createInsecure();
  const ctx = {
    baseDir: path.dirname(readme),
    timeoutMs: args.timeoutMs,
    reflection: new ReflectionClient(args.target, creds),
    client: new grpc.Client(args.target, creds),
  };
  let passed = 0;
  let failed = 0;
  if (!examples.length) {
    console.log(`FAIL no \`sh grpcurl\` examples in ${args.readme}`);
    failed++;
  }
  for (const example of examples) {
    const name = `README.md:${example.line} ${example.text}`;
    console.log(`RUN  ${name}`);
    try {
      const detail = await replay(example, ctx);
      console.log(`PASS ${name} — ${detail}`);
      passed++;
    } catch (err) {
      console.log(`FAIL ${name} — ${err && err.message ? err.message : err}`);
      failed++;
    }
  }
  ctx.client.close();
  ctx.reflection.grpcClient.close();
  console.log(`${passed} passed, ${failed} failed`);
  return failed === 0 && passed > 0 ? 0 : 1;
}

const hardStop = setTimeout(() => {
  console.log('FAIL overall — grpcurl examples did not finish within 90 s');
  process.exit(1);
}, 90000);
hardStop.unref();

main().then((code) => process.exit(code), (err) => {
  console.log(`FAIL grpcurl_examples.js — ${err && err.stack ? err.stack : err}`);
  process.exit(1);
});
