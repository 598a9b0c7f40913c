// Runs a rendered Deployment's server container "as Kubernetes would" under
// podman, as far as the fields matter for a single container:
//
//   node podman-args.mjs RENDERED.yaml OUTDIR
//
// writes OUTDIR/env (envFrom ConfigMaps + env values, for --env-file),
// OUTDIR/volumes/<volume>/<key> (ConfigMap volumes, decoded), OUTDIR/args
// (one podman run argument per line: env file, read-only mounts, user,
// read-only root filesystem, dropped capabilities, no-new-privileges) and
// OUTDIR/facts.sh (shell variables: container ports by name, probe settings,
// termination grace, drain/grace/catalog settings) for deploy/verify.sh.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseAllDocuments } from "yaml";

const [file, out] = process.argv.slice(2);
if (!file || !out) {
  console.error("usage: node podman-args.mjs RENDERED.yaml OUTDIR");
  process.exit(2);
}
const objs = parseAllDocuments(readFileSync(file, "utf8")).map((d) => d.toJS()).filter(Boolean);
const configMaps = new Map(objs.filter((o) => o.kind === "ConfigMap").map((o) => [o.metadata.name, o]));
const deployments = objs.filter((o) => o.kind === "Deployment");
if (deployments.length !== 1) throw new Error(`${file}: expected one Deployment, found ${deployments.length}`);
const pod = deployments[0].spec.template.spec;
const c = pod.containers[0];
const podSc = pod.securityContext ?? {};
const sc = c.securityContext ?? {};

mkdirSync(out, { recursive: true });
const env = {};
for (const ef of c.envFrom ?? []) {
  const cm = configMaps.get(ef.configMapRef?.name);
  if (!cm) throw new Error(`envFrom ConfigMap ${ef.configMapRef?.name} not rendered`);
  Object.assign(env, cm.data ?? {});
}
for (const e of c.env ?? []) if (e.value !== undefined) env[e.name] = e.value;
for (const [k, v] of Object.entries(env)) {
  if (/[\n\r]/.test(String(v))) throw new Error(`env ${k}: multi-line values cannot go into an env file`);
}
writeFileSync(join(out, "env"), Object.entries(env).map(([k, v]) => `${k}=${v}\n`).join(""));

const args = [`--env-file=${join(out, "env")}`];
const volumes = new Map((pod.volumes ?? []).map((v) => [v.name, v]));
for (const vm of c.volumeMounts ?? []) {
  const v = volumes.get(vm.name);
  if (!v?.configMap) throw new Error(`volume ${vm.name}: only ConfigMap volumes are supported here`);
  const cm = configMaps.get(v.configMap.name);
  if (!cm) throw new Error(`volume ${vm.name}: ConfigMap ${v.configMap.name} not rendered`);
  const dir = join(out, "volumes", vm.name);
  mkdirSync(dir, { recursive: true });
  const items = v.configMap.items ?? Object.keys({ ...cm.data, ...cm.binaryData }).map((key) => ({ key, path: key }));
  for (const { key, path } of items) {
    if (cm.binaryData?.[key] !== undefined) {
      writeFileSync(join(dir, path), Buffer.from(cm.binaryData[key].replace(/\s/g, ""), "base64"));
    } else if (cm.data?.[key] !== undefined) {
      writeFileSync(join(dir, path), cm.data[key]);
    } else {
      throw new Error(`volume ${vm.name}: key ${key} not in ConfigMap ${cm.metadata.name}`);
    }
  }
  args.push(`--volume=${dir}:${vm.mountPath}:${vm.readOnly ? "ro" : "rw"}`);
}
const uid = sc.runAsUser ?? podSc.runAsUser;
const gid = sc.runAsGroup ?? podSc.runAsGroup;
if (uid !== undefined) args.push(`--user=${uid}${gid !== undefined ? `:${gid}` : ""}`);
// Kubernetes mounts nothing writable unless asked: no /tmp, /run tmpfs.
if (sc.readOnlyRootFilesystem) args.push("--read-only", "--read-only-tmpfs=false");
for (const cap of sc.capabilities?.drop ?? []) args.push(`--cap-drop=${cap}`);
if (sc.allowPrivilegeEscalation === false) args.push("--security-opt=no-new-privileges");
writeFileSync(join(out, "args"), args.map((a) => `${a}\n`).join(""));

const port = (name) => (c.ports ?? []).find((p) => p.name === name)?.containerPort ?? "";
const preStop = c.lifecycle?.preStop?.exec?.command ?? [];
const facts = {
  GRPC_PORT: port("grpc"),
  METRICS_PORT: port("metrics"),
  READINESS_SERVICE: c.readinessProbe?.grpc?.service ?? "",
  READINESS_PERIOD: c.readinessProbe?.periodSeconds ?? 10,
  TERMINATION_GRACE: pod.terminationGracePeriodSeconds ?? 30,
  PRESTOP_SLEEP: /(^|\/)sleep$/.test(preStop[0] ?? "") ? Number(preStop[1]) : (c.lifecycle?.preStop?.sleep?.seconds ?? 0),
  DRAIN_DELAY: env.ACCELPLAN_DRAIN_DELAY_SECONDS ?? 5,
  SHUTDOWN_GRACE: env.ACCELPLAN_SHUTDOWN_GRACE_SECONDS ?? 10,
  CATALOG: env.ACCELPLAN_CATALOG ?? "",
  RUN_AS_USER: uid ?? "",
};
writeFileSync(join(out, "facts.sh"), Object.entries(facts).map(([k, v]) => `${k}=${JSON.stringify(String(v))}\n`).join(""));
console.log(`${file}: ${args.length} podman args, ${Object.keys(env).length} env vars -> ${out}`);
