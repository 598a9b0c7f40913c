// Offline validation of rendered Kubernetes manifests (no API server here).
//
//   node validate.mjs [--flags FLAGS_CC] [--self-test [--verbose]] RENDERED.yaml...
//
// Each file is one `kubectl kustomize` output and is checked as a set:
//  1. schema: kubernetes-models (types, required fields, enums; the Prometheus
//     Operator CRDs from @kubernetes-models/prometheus-operator);
//  2. unknown fields: walks @kubernetes/client-node's generated field maps
//     (kubernetes-models accepts unknown fields); a removed API version has no
//     field map and fails;
//  3. cross-object checks an API server or controller would only reveal at
//     run time: selectors match pod labels, probe ports and Service
//     targetPorts exist as container ports, the HPA and PDB select the
//     Deployment, referenced ConfigMaps and volumes exist, ServiceMonitor
//     ports exist;
//  4. accelplan policy: native gRPC probes on numeric ports, hardened
//     securityContext, resources, preStop, terminationGracePeriodSeconds >
//     preStop + drain delay + shutdown grace, ACCELPLAN_* keys are real
//     server flags (with --flags server/flags.cc).
// --self-test also breaks the first file's objects in known ways and requires
// each breakage to be reported, so the checks themselves cannot rot.
// Exit 0 when every file passes (and every mutation is caught), else 1.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { parseAllDocuments } from "yaml";
import * as M from "@kubernetes/client-node/dist/gen/models/all.js";

const require = createRequire(import.meta.url);
const READINESS_SERVICE = "accelplan.v1.TrainingPlanner";

// ---------- 1 + 2: schema and unknown fields, per object ----------

function unknownFields(v, t, p, out) {
  let m;
  if (v == null) return;
  if ((m = /^Array<(.+)>$/.exec(t))) {
    if (Array.isArray(v)) v.forEach((x, i) => unknownFields(x, m[1], `${p}[${i}]`, out));
    return;
  }
  if ((m = /^\{ \[key: string\]: (.+); \}$/.exec(t))) {
    if (typeof v === "object") for (const [k, x] of Object.entries(v)) unknownFields(x, m[1], `${p}.${k}`, out);
    return;
  }
  const c = M[t];
  if (!c?.attributeTypeMap || typeof v !== "object" || Array.isArray(v)) return;
  const known = new Map(c.attributeTypeMap.map((a) => [a.baseName, a.type]));
  for (const [k, x] of Object.entries(v)) {
    if (known.has(k)) unknownFields(x, known.get(k), `${p}.${k}`, out);
    else out.push(`${p}.${k}: unknown field`);
  }
}

function loadModel(apiVersion, kind) {
  const paths = [`kubernetes-models/${apiVersion}/${kind}`];
  if (apiVersion.startsWith("monitoring.coreos.com/")) {
    paths.unshift(`@kubernetes-models/prometheus-operator/${apiVersion}/${kind}`);
  }
  for (const p of paths) {
    try {
      return require(p)[kind];
    } catch {
      // try the next package
    }
  }
  return undefined;
}

// kustomize wraps binaryData base64 at 70 columns; the API server's base64
// decoder (Go encoding/base64) skips the newlines, the "byte" format does not.
function decodable(o) {
  if (!o.binaryData) return o;
  const binaryData = Object.fromEntries(Object.entries(o.binaryData).map(([k, v]) => [k, typeof v === "string" ? v.replace(/[\r\n]/g, "") : v]));
  return { ...o, binaryData };
}

function schemaErrors(o) {
  const errs = [];
  const { apiVersion = "?", kind = "?" } = o;
  const Model = loadModel(apiVersion, kind);
  if (!Model) return [`unknown apiVersion/kind ${apiVersion} ${kind}`];
  try {
    new Model(decodable(o)).validate();
  } catch (e) {
    for (const x of e.errors ?? [e]) errs.push(`${x.instancePath || "/"} ${x.message}`);
  }
  if (apiVersion.includes(".coreos.com/")) return errs; // CRD: no field map
  const ver = apiVersion.split("/").pop();
  const typeName = ver[0].toUpperCase() + ver.slice(1) + kind;
  if (M[typeName]) unknownFields(o, typeName, "", errs);
  else errs.push(`no field map for ${typeName} (removed or unknown API version)`);
  return errs;
}

// ---------- 3 + 4: cross-object and policy checks, per rendered set ----------

const labelsMatch = (selector, labels) =>
  selector != null &&
  Object.keys(selector).length > 0 &&
  Object.entries(selector).every(([k, v]) => labels?.[k] === v);

// matchLabels plus the matchExpressions operators Deployments/PDBs use.
function labelSelectorMatches(sel, labels) {
  if (!sel) return false;
  const ml = sel.matchLabels ?? {};
  const exprs = sel.matchExpressions ?? [];
  if (Object.keys(ml).length === 0 && exprs.length === 0) return false;
  if (!Object.entries(ml).every(([k, v]) => labels?.[k] === v)) return false;
  return exprs.every(({ key, operator, values = [] }) => {
    const has = labels != null && key in labels;
    switch (operator) {
      case "In": return has && values.includes(labels[key]);
      case "NotIn": return !has || !values.includes(labels[key]);
      case "Exists": return has;
      case "DoesNotExist": return !has;
      default: return false;
    }
  });
}

function seconds(value, fallback) {
  const n = Number(value);
  return value === undefined || Number.isNaN(n) ? fallback : n;
}

function flagNamesFrom(file) {
  const names = new Set();
  for (const m of readFileSync(file, "utf8").matchAll(/ABSL_FLAG\(\s*[\w:]+\s*,\s*(\w+)\s*,/g)) {
    names.add(`ACCELPLAN_${m[1].toUpperCase()}`);
  }
  return names;
}

function crossCheck(objs, flagEnvNames) {
  const errs = [];
  const id = (o) => `${o.kind}/${o.metadata?.name}`;
  const of = (kind) => objs.filter((o) => o.kind === kind);
  const configMaps = new Map(of("ConfigMap").map((o) => [o.metadata?.name, o]));
  const deployments = of("Deployment");
  const services = of("Service");
  const podsOf = deployments.map((d) => ({ d, labels: d.spec?.template?.metadata?.labels ?? {}, spec: d.spec?.template?.spec ?? {} }));

  if (deployments.length === 0) errs.push("no Deployment in the set");
  for (const { d, labels, spec } of podsOf) {
    const e = (m) => errs.push(`${id(d)}: ${m}`);
    if (!labelSelectorMatches(d.spec?.selector, labels)) e("spec.selector does not match the pod template labels");
    const containers = spec.containers ?? [];
    const volumes = new Set((spec.volumes ?? []).map((v) => v.name));
    for (const v of spec.volumes ?? []) {
      if (v.configMap && !configMaps.has(v.configMap.name) && !v.configMap.optional) e(`volume ${v.name}: ConfigMap ${v.configMap.name} not in the set`);
    }
    const podSc = spec.securityContext ?? {};
    if (podSc.seccompProfile?.type !== "RuntimeDefault") e("pod securityContext.seccompProfile.type must be RuntimeDefault");
    // Env from ConfigMaps: the server's drain and grace come from there.
    let env = {};
    for (const c of containers) {
      const ce = (m) => e(`container ${c.name}: ${m}`);
      const ports = c.ports ?? [];
      const portNumbers = new Set(ports.map((p) => p.containerPort));
      const portNames = new Set(ports.filter((p) => p.name).map((p) => p.name));
      for (const ef of c.envFrom ?? []) {
        const name = ef.configMapRef?.name;
        if (name === undefined) continue;
        const cm = configMaps.get(name);
        if (!cm) { if (!ef.configMapRef.optional) ce(`envFrom ConfigMap ${name} not in the set`); continue; }
        env = { ...env, ...(cm.data ?? {}) };
      }
      for (const ev of c.env ?? []) if (ev.value !== undefined) env[ev.name] = ev.value;
      for (const vm of c.volumeMounts ?? []) if (!volumes.has(vm.name)) ce(`volumeMount ${vm.name} has no volume`);
      for (const probeName of ["startupProbe", "livenessProbe", "readinessProbe"]) {
        const probe = c[probeName];
        if (!probe) { ce(`${probeName} missing`); continue; }
        if (!probe.grpc) { ce(`${probeName} is not a native gRPC probe`); continue; }
        if (typeof probe.grpc.port !== "number") ce(`${probeName}.grpc.port must be a number`);
        else if (!portNumbers.has(probe.grpc.port)) ce(`${probeName}.grpc.port ${probe.grpc.port} is not a containerPort`);
      }
      if (c.readinessProbe?.grpc && c.readinessProbe.grpc.service !== READINESS_SERVICE) {
        ce(`readinessProbe.grpc.service must be ${READINESS_SERVICE}`);
      }
      if (c.livenessProbe?.grpc?.service) ce("livenessProbe must check service \"\" (liveness), not readiness");
      const sc = c.securityContext ?? {};
      if (!(sc.runAsNonRoot ?? podSc.runAsNonRoot)) ce("runAsNonRoot not set");
      if (sc.readOnlyRootFilesystem !== true) ce("readOnlyRootFilesystem must be true");
      if (sc.allowPrivilegeEscalation !== false) ce("allowPrivilegeEscalation must be false");
      if (!(sc.capabilities?.drop ?? []).includes("ALL")) ce("capabilities.drop must include ALL");
      if ((sc.seccompProfile ?? podSc.seccompProfile)?.type !== "RuntimeDefault") ce("seccompProfile must be RuntimeDefault");
      if (!c.resources?.requests?.cpu || !c.resources?.requests?.memory) ce("resources.requests cpu and memory required");
      if (!c.resources?.limits?.memory) ce("resources.limits.memory required");
      const preStop = c.lifecycle?.preStop;
      if (!preStop) ce("lifecycle.preStop missing");
      let preStopSeconds = 0;
      if (preStop?.sleep) preStopSeconds = seconds(preStop.sleep.seconds, 0);
      const cmd = preStop?.exec?.command ?? [];
      if (/(^|\/)sleep$/.test(cmd[0] ?? "")) preStopSeconds = seconds(cmd[1], 0);
      const drain = seconds(env.ACCELPLAN_DRAIN_DELAY_SECONDS, 5);
      const grace = seconds(env.ACCELPLAN_SHUTDOWN_GRACE_SECONDS, 10);
      const tgps = spec.terminationGracePeriodSeconds ?? 30;
      if (!(tgps > preStopSeconds + drain + grace)) {
        ce(`terminationGracePeriodSeconds ${tgps} must exceed preStop ${preStopSeconds} + drain ${drain} + grace ${grace}`);
      }
      if (flagEnvNames) {
        for (const k of Object.keys(env)) {
          if (k.startsWith("ACCELPLAN_") && !flagEnvNames.has(k)) ce(`${k} is not a server flag (server/flags.cc)`);
        }
      }
      c.__portNumbers = portNumbers;
      c.__portNames = portNames;
    }
  }

  const hitsPods = (sel) => podsOf.filter((p) => labelsMatch(sel, p.labels));
  let headless = 0;
  let grpcPort = 0;
  for (const s of services) {
    const e = (m) => errs.push(`${id(s)}: ${m}`);
    const pods = hitsPods(s.spec?.selector);
    if (pods.length === 0) { e("selector matches no Deployment's pod labels"); continue; }
    if (s.spec?.clusterIP === "None") headless++;
    for (const p of s.spec?.ports ?? []) {
      if (p.name === "grpc" && s.spec?.clusterIP !== "None") grpcPort++;
      const target = p.targetPort ?? p.port;
      for (const { d, spec } of pods) {
        const found = (spec.containers ?? []).some((c) =>
          typeof target === "number" ? c.__portNumbers.has(target) : c.__portNames.has(target));
        if (!found) e(`port ${p.name ?? p.port}: targetPort ${target} is not a container port of ${id(d)}`);
      }
    }
  }
  if (grpcPort === 0) errs.push("no ClusterIP Service with a port named grpc");
  if (headless === 0) errs.push("no headless Service (clusterIP: None) for client-side round_robin");

  for (const h of of("HorizontalPodAutoscaler")) {
    const e = (m) => errs.push(`${id(h)}: ${m}`);
    const ref = h.spec?.scaleTargetRef ?? {};
    const target = deployments.find((d) => ref.kind === "Deployment" && ref.apiVersion === "apps/v1" && ref.name === d.metadata?.name);
    if (!target) e(`scaleTargetRef ${ref.apiVersion} ${ref.kind}/${ref.name} is not a Deployment in the set`);
    if ((h.spec?.minReplicas ?? 1) > (h.spec?.maxReplicas ?? 0)) e("minReplicas > maxReplicas");
    if (target?.spec?.replicas !== undefined) e(`${id(target)} sets replicas; every apply would reset what the HPA scaled to`);
    const usesCpu = (h.spec?.metrics ?? []).some((m) => m.resource?.name === "cpu" && m.resource?.target?.type === "Utilization");
    if (target && usesCpu && !(target.spec?.template?.spec?.containers ?? []).every((c) => c.resources?.requests?.cpu)) {
      e("CPU utilization target needs requests.cpu on every container");
    }
  }
  if (of("HorizontalPodAutoscaler").length === 0) errs.push("no HorizontalPodAutoscaler");

  for (const p of of("PodDisruptionBudget")) {
    const e = (m) => errs.push(`${id(p)}: ${m}`);
    const hit = podsOf.filter((x) => labelSelectorMatches(p.spec?.selector, x.labels));
    if (hit.length === 0) e("selector matches no Deployment's pod labels");
    if ((p.spec?.minAvailable !== undefined) === (p.spec?.maxUnavailable !== undefined)) e("set exactly one of minAvailable and maxUnavailable");
    // The HPA's minimum where one scales the Deployment, else its replicas.
    const minReplicas = Math.min(...hit.map(({ d }) => {
      const hpa = of("HorizontalPodAutoscaler").find((h) => h.spec?.scaleTargetRef?.kind === "Deployment" && h.spec?.scaleTargetRef?.name === d.metadata?.name);
      return hpa ? (hpa.spec?.minReplicas ?? 1) : (d.spec?.replicas ?? 1);
    }));
    if (typeof p.spec?.minAvailable === "number" && p.spec.minAvailable >= minReplicas) {
      e(`minAvailable ${p.spec.minAvailable} >= ${minReplicas} replicas blocks every node drain`);
    }
  }
  if (of("PodDisruptionBudget").length === 0) errs.push("no PodDisruptionBudget");

  for (const sm of of("ServiceMonitor")) {
    const e = (m) => errs.push(`${id(sm)}: ${m}`);
    const hit = services.filter((s) => labelSelectorMatches(sm.spec?.selector, s.metadata?.labels));
    if (hit.length === 0) { e("selector matches no Service labels"); continue; }
    for (const ep of sm.spec?.endpoints ?? []) {
      if (ep.port && !hit.some((s) => (s.spec?.ports ?? []).some((p) => p.name === ep.port))) e(`endpoint port ${ep.port} is not a named port of a selected Service`);
    }
  }
  if (of("ServiceMonitor").length === 0) errs.push("no ServiceMonitor");
  for (const { spec } of podsOf) for (const c of spec.containers ?? []) { delete c.__portNumbers; delete c.__portNames; }
  return errs;
}

function checkSet(objs, flagEnvNames) {
  const errs = [];
  for (const o of objs) for (const x of schemaErrors(o)) errs.push(`${o.apiVersion} ${o.kind}/${o.metadata?.name}: ${x}`);
  return errs.concat(crossCheck(objs, flagEnvNames));
}

// ---------- self-test: each mutation must be reported ----------

const find = (objs, kind, pred = () => true) => objs.find((o) => o.kind === kind && pred(o));
const server = (objs) => find(objs, "Deployment").spec.template.spec.containers[0];
const MUTATIONS = {
  "unknown field in a probe": (o) => { server(o).readinessProbe.grpc.serviceName = "x"; },
  "misspelled metadata.labels": (o) => { const d = find(o, "Deployment"); d.metadata.lables = d.metadata.labels; delete d.metadata.labels; },
  "string where an integer belongs": (o) => { server(o).readinessProbe.periodSeconds = "five"; },
  "missing container name": (o) => { delete server(o).name; },
  "removed API version (policy/v1beta1)": (o) => { find(o, "PodDisruptionBudget").apiVersion = "policy/v1beta1"; },
  "Deployment selector differs from pod labels": (o) => { find(o, "Deployment").spec.selector.matchLabels["app.kubernetes.io/name"] = "other"; },
  "Service selector hits no pods": (o) => { find(o, "Service", (s) => s.spec.clusterIP !== "None").spec.selector = { app: "nothing" }; },
  "Service targetPort not a container port": (o) => { find(o, "Service").spec.ports[0].targetPort = "grcp"; },
  "readiness probe on a port not exposed": (o) => { server(o).readinessProbe.grpc.port = 50052; },
  "readiness probe checks liveness": (o) => { delete server(o).readinessProbe.grpc.service; },
  "probe port by name": (o) => { server(o).livenessProbe.grpc.port = "grpc"; },
  "HPA targets another Deployment": (o) => { find(o, "HorizontalPodAutoscaler").spec.scaleTargetRef.name = "accelplan"; },
  "PDB selects nothing": (o) => { find(o, "PodDisruptionBudget").spec.selector.matchLabels = { app: "nothing" }; },
  "PDB with minAvailable and maxUnavailable": (o) => { find(o, "PodDisruptionBudget").spec.maxUnavailable = 1; },
  "PDB minAvailable blocks every drain": (o) => { find(o, "HorizontalPodAutoscaler").spec.minReplicas = 1; },
  "replicas fight the HPA": (o) => { find(o, "Deployment").spec.replicas = 3; },
  "grace period too short for drain": (o) => { find(o, "Deployment").spec.template.spec.terminationGracePeriodSeconds = 15; },
  "writable root filesystem": (o) => { server(o).securityContext.readOnlyRootFilesystem = false; },
  "misspelled ACCELPLAN_ key": (o) => { find(o, "ConfigMap", (c) => c.data?.ACCELPLAN_LISTEN).data.ACCELPLAN_DRAIN_DELAY = "5"; },
  "envFrom ConfigMap missing": (o) => { server(o).envFrom[0].configMapRef.name = "accelplan-server"; },
  "ServiceMonitor port not on the Service": (o) => { find(o, "ServiceMonitor").spec.endpoints[0].port = "http-metrics"; },
  "no headless Service": (o) => { o.splice(o.indexOf(find(o, "Service", (s) => s.spec.clusterIP === "None")), 1); },
};

function selfTest(objs, flagEnvNames) {
  let caught = 0;
  const missed = [];
  for (const [name, mutate] of Object.entries(MUTATIONS)) {
    const copy = structuredClone(objs);
    mutate(copy);
    const errs = checkSet(copy, flagEnvNames);
    if (errs.length > 0) caught++;
    else missed.push(name);
    if (errs.length === 0) console.error(`  self-test MISSED: ${name}`);
    else if (verbose) console.log(`  self-test caught: ${name} -> ${errs[0]}`);
  }
  console.log(`self-test: ${caught}/${Object.keys(MUTATIONS).length} broken variants rejected`);
  return missed.length === 0;
}

// ---------- main ----------

const args = process.argv.slice(2);
let flagEnvNames = null;
let doSelfTest = false;
let verbose = false;
const files = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--flags") flagEnvNames = flagNamesFrom(args[++i]);
  else if (args[i] === "--self-test") doSelfTest = true;
  else if (args[i] === "--verbose") verbose = true;
  else files.push(args[i]);
}
if (files.length === 0) {
  console.error("usage: node validate.mjs [--flags server/flags.cc] [--self-test [--verbose]] RENDERED.yaml...");
  process.exit(2);
}
let failed = 0;
let first = null;
for (const f of files) {
  const docs = parseAllDocuments(readFileSync(f, "utf8"));
  const parseErrs = docs.flatMap((d) => d.errors.map((e) => e.message));
  const objs = docs.map((d) => d.toJS()).filter(Boolean);
  first ??= objs;
  const errs = parseErrs.concat(checkSet(objs, flagEnvNames));
  const kinds = objs.map((o) => o.kind).join(", ");
  if (errs.length) {
    failed++;
    console.error(`FAIL ${f} (${objs.length} objects)\n  ${errs.join("\n  ")}`);
  } else {
    console.log(`ok ${f}: ${objs.length} objects (${kinds})`);
  }
}
let selfOk = true;
if (doSelfTest) selfOk = failed === 0 && selfTest(first, flagEnvNames);
console.log(`${files.length - failed} passed, ${failed} failed`);
process.exit(failed || !selfOk ? 1 : 0);
