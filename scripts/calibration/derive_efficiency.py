#!/usr/bin/env python3
"""Derives measured efficiencies from the calibration runs.

Reads tests/planner/calibration/runs.csv (the published runs, one URL each)
and prints, per run, the model-FLOPs utilisation on accelplan's basis:

  mfu = (6·P + 12·L·h·s) · tokens/s/device / peak(precision)

6·P·D with P the active parameters, plus PaLM's attention term
(arXiv:2204.02311 appendix B: 12·L·H·Q·T per token, forward and backward,
recompute excluded), a sliding window's local layers at 2W - W^2/s
positions as planner/time_model.cc counts them (the row's sliding_window
and global_attention_every columns). Published MFU figures that already use that basis
(MaxText before PR #1988, LLM Foundry, PaLM) are taken as printed; the
Megatron-LM 1T figure counts the recompute forward and is scaled by 3/4.
Step times and tokens/s are converted with the peak of the precision the
run used (FP8 runs against the FP8 peak).

  --sql   prints the INSERT rows of catalog/data/96_measured_efficiency.sql
  --loo   leave-one-out over the fit half: the band spread of planner/policy.h
"""
import csv
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
RUNS = os.path.join(HERE, '..', '..', 'tests', 'planner', 'calibration',
                    'runs.csv')

# Dense peaks (FLOP/s) the catalog holds for each accelerator and precision.
PEAK = {
    ('tpu-v4', 'BF16'): 275e12, ('tpu-v5e', 'BF16'): 197e12,
    ('tpu-v5p', 'BF16'): 459e12, ('tpu-v6e', 'BF16'): 918e12,
    ('nvidia-a100-80gb', 'BF16'): 312e12, ('nvidia-a100-40gb', 'BF16'): 312e12,
    ('nvidia-h100-80gb', 'BF16'): 989e12, ('nvidia-h100-80gb', 'FP8'): 1979e12,
    ('nvidia-h200-141gb', 'BF16'): 989e12, ('nvidia-h200-141gb', 'FP8'): 1979e12,
    ('nvidia-b200', 'BF16'): 2250e12, ('nvidia-b200', 'FP8'): 4500e12,
    ('tpu7x', 'BF16'): 2307e12, ('tpu7x', 'FP8'): 4614e12,
}


def accelerator(hw):
    hw = hw.lower()
    for key, acc in (('tpu7x', 'tpu7x'), ('v4', 'tpu-v4'), ('v5e', 'tpu-v5e'), ('v5p', 'tpu-v5p'),
                     ('v6e', 'tpu-v6e'), ('a100 sxm 40', 'nvidia-a100-40gb'),
                     ('a100', 'nvidia-a100-80gb'), ('h200', 'nvidia-h200-141gb'),
                     ('h100', 'nvidia-h100-80gb'), ('b200', 'nvidia-b200')):
        if key in hw:
            return acc
    raise ValueError(hw)


def precision(p):
    p = p.lower()
    if p.startswith('int8'):
        return 'INT8'
    if 'fp8' in p:
        return 'FP8'
    return 'BF16'


def stack(fw):
    f = fw.lower()
    if 'jax' in f or 'maxtext' in f:
        return 'JAX_XLA'
    if 'megatron' in f:
        return 'PYTORCH_MEGATRON'
    return 'PYTORCH_FSDP'  # LLM Foundry, torchtitan, NeMo AutoModel (FSDP2)


def recompute(r):
    r = r.lower()
    if r.startswith('full'):
        return 'FULL'
    if r.startswith('selective'):
        return 'SELECTIVE'
    if r.startswith('none'):
        return 'NONE'
    return None


def tensor_parallel(parallelism):
    """The run's tensor-parallel degree: tp=N as published, 1 where no
    tensor parallelism is named, None where it was used at a degree the
    source does not give (a band counts such a run as not vouching for it)."""
    m = re.search(r'(?<![a-z])tp=(\d+)', parallelism)
    if m:
        return int(m.group(1))
    if re.search(r'tensor|model \(2d\)', parallelism.lower()):
        return None
    return 1


def num(s):
    try:
        return float(s)
    except (TypeError, ValueError):
        return 0.0


def attended_positions(row, layers, seq):
    """planner/time_model.cc AttendedPositions: s per global layer, a
    sliding window's local layer at 2W - W^2/s on the same basis."""
    window = num(row.get('sliding_window'))
    if window <= 0 or window >= seq:
        return layers * seq
    every = int(num(row.get('global_attention_every')))
    glob = int(layers) // every if every > 0 else 0
    return glob * seq + (layers - glob) * (2 * window - window * window / seq)


def derive(row):
    acc = accelerator(row['hardware'])
    prec = precision(row['precision'])
    n = num(row['device_count'])
    p_active = num(row['params_active']) or num(row['params_total'])
    layers, hidden, seq = num(row['layers']), num(row['hidden']), num(row['seq_len'])
    attn = 12 * hidden * attended_positions(row, layers, seq)
    model = 6 * p_active + attn
    peak = PEAK.get((acc, 'BF16' if prec == 'INT8' else prec))
    metric, value = row['measured_metric'], num(row['measured_value'])
    if metric == 'mfu':
        mfu = value * (0.75 if row['id'] == 'G04' else 1.0)
        mfu_6pd = mfu * 6 * p_active / model
    else:
        if metric == 'step_time_s':
            tps = num(row['global_batch_seqs']) * seq / value / n
        elif metric == 'tokens_per_s_per_device':
            tps = value
        else:
            return None
        mfu = model * tps / peak
        mfu_6pd = 6 * p_active * tps / peak
    return dict(id=row['id'], acc=acc, prec=prec, stack=stack(row['framework']),
                moe=1 if num(row['params_active']) > 0 else 0,
                recompute=recompute(row['recompute']),
                tp=tensor_parallel(row['parallelism']), n=int(n), mfu=mfu,
                mfu_6pd=mfu_6pd, model=row['model'], split=row['split'],
                url=row['url'], hardware=row['hardware'])


# Fit runs kept out of the bands: parts Google Cloud does not offer.
EXCLUDED = {
    'G34': 'power-limited B200 (limit not published); the source says to '
           'use it for bf16/fp8 ratios, not absolute figures',
}


def q(text):
    return "'" + text.replace("'", "''") + "'"


def print_sql(rows):
    print('-- Generated by scripts/calibration/derive_efficiency.py --sql from')
    print('-- tests/planner/calibration/runs.csv: the fit half of the published')
    print('-- runs (the test half is what tests/planner/calibration_test.cc')
    print('-- checks the planner against). One source per run: its URL.')
    fit = [r for r in rows if r['split'] == 'fit' and r['prec'] != 'INT8'
           and r['id'] not in EXCLUDED]
    print('INSERT INTO sources (id, url, title, note) VALUES')
    print(',\n'.join('  (%s, %s, %s, NULL)' % (
        q('RUN-' + r['id']), q(r['url']),
        q('Published run %s: %s on %d x %s' % (r['id'], r['model'], r['n'],
                                             r['hardware'])))
        for r in fit) + ';')
    print()
    print('INSERT INTO measured_efficiency (run_id, accelerator, precision, '
          'stack, moe, recompute, tensor_parallel, devices, model, mfu, '
          'mfu_6pd, source_id, note) VALUES')
    print(',\n'.join(
        '  (%s, %s, %s, %s, %d, %s, %s, %d, %s, %.4f, %.4f, %s, %s)' % (
        q(r['id']), q(r['acc']), q(r['prec']), q(r['stack']), r['moe'],
        q(r['recompute']) if r['recompute'] else 'NULL',
        'NULL' if r['tp'] is None else str(r['tp']), r['n'], q(r['model']),
        r['mfu'], r['mfu_6pd'], q('RUN-' + r['id']),
        q('as published on ' + r['hardware']) if 'H100 (96GB' in r['hardware']
        else 'NULL')
        for r in fit) + ';')


GENERATION = {'nvidia-a100-80gb': 'Ampere', 'nvidia-a100-40gb': 'Ampere',
              'nvidia-h100-80gb': 'Hopper', 'nvidia-h200-141gb': 'Hopper',
              'nvidia-b200': 'Blackwell'}


def band(fit, r, spread, widening):
    """planner/efficiency.cc's fallback chain, in Python."""
    gen = lambda x: GENERATION.get(x['acc'], x['acc'])
    stack = lambda x: x['stack'].split('_')[0]
    levels = [lambda x: x['acc'] == r['acc'] and stack(x) == stack(r),
              lambda x: gen(x) == gen(r) and stack(x) == stack(r),
              lambda x: gen(x) == gen(r),
              lambda x: x['acc'][:3] == r['acc'][:3]]
    for i, match in enumerate(levels):
        c = [x['mfu'] for x in fit if match(x) and x['prec'] == r['prec']
             and x['moe'] == r['moe'] and x['id'] != r['id']]
        if c:
            w = spread + (widening if i else 0)
            return min(c) * (1 - w), min(0.95, max(c) * (1 + w))
    return None


def leave_one_out(rows):
    """Smallest spread (multiple of 0.05) that puts >= 80% of the fit runs
    inside the band of the other fit runs of their class."""
    fit = [r for r in rows if r['split'] == 'fit' and r['prec'] != 'INT8'
           and r['id'] not in EXCLUDED]
    for k in range(0, 11):
        spread = 0.05 * k
        inside = 0
        for r in fit:
            b = band(fit, r, spread, 0.10)
            inside += bool(b and b[0] <= r['mfu'] <= b[1])
        print('spread %.2f: %d/%d fit runs inside (%.0f%%)' % (
            spread, inside, len(fit), 100.0 * inside / len(fit)))
        if inside >= 0.8 * len(fit):
            return spread
    return None


def main():
    rows = [derive(r) for r in csv.DictReader(open(RUNS))]
    rows = [r for r in rows if r]
    if '--loo' in sys.argv:
        print('chosen spread:', leave_one_out(rows))
        return
    if '--sql' in sys.argv:
        print_sql(rows)
        return
    for r in rows:
        print('%s %-18s %-4s %-16s moe=%d %-9s mfu=%.3f mfu6pd=%.3f %s %s' % (
            r['id'], r['acc'], r['prec'], r['stack'], r['moe'],
            r['recompute'], r['mfu'], r['mfu_6pd'], r['split'], r['hardware'][:20]))


if __name__ == '__main__':
    main()
