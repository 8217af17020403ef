#!/usr/bin/env python3
# A starter training script written by GPU Planner from a plan: a small but real PyTorch model of the plan's kind,
# trained on synthetic data, that survives spot interruptions. Put your own model and dataset where it says
# "REPLACE THIS"; keep the rest (checkpoints, the interruption signal, the resume, the speed line), which is what
# GPU Planner's run monitor and spot recovery rely on.
#
#   python3 train.py                        one process (the GPU when there is one)
#   torchrun --standalone --nproc_per_node=N train.py
#                                           N processes (DDP), one per GPU; rank 0 writes the checkpoints
#   python3 train.py --scale tiny --device cpu --max-steps 40 --checkpoint-every 10 --log-every 1
#                                           a smoke run on a laptop
#
# Environment:
#   GPUPLAN_CHECKPOINT_DIR    where checkpoints go (default ./checkpoints): step-00000120.pt, written atomically,
#                             the newest 2 kept; at start the newest that loads is resumed from
#   GPUPLAN_INTERRUPT_SIGNAL  the signal that means "the machine is going" (default below, USR1); SIGTERM too.
#                             At the next step boundary the script checkpoints, writes GPUPLAN_CHECKPOINT_READY,
#                             and exits with 75
#   GPUPLAN_CHECKPOINT_READY  a file that gets the step number once that checkpoint is on disk (unset: none)
#   GPUPLAN_PREEMPT_FILE      a file that means the same as the signal when it appears (or is written again) while
#                             this script runs; one left from an earlier run is no notice
#
# Every LOG_EVERY steps it prints one line in a fixed format that GPU Planner reads for the speed:
#   gpuplan-train step 120/1000 loss 2.3130 samples/s 512.3        (tokens/s for a language model)
# Runs on PyTorch 1.13 and 2.x; needs nothing but torch.
import argparse
import contextlib
import inspect
import math
import os
import re
import signal
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

# The plan's figures, filled in by GPU Planner. "full" scale uses them; "--scale tiny" shrinks the model and data.
SETTINGS = {
    "workload": {{workload_name}},
    "family": {{family}},  # "cnn" or "transformer"
    "precision": {{precision}},  # "bf16", "fp16" (autocast + GradScaler), "fp32" or "tf32"
    "gpus": {{gpus}},  # GPUs the plan counts on (torchrun --nproc_per_node)
    "batch_size": {{batch_size}},  # per GPU (the plan's micro-batch)
    "sequence_length": {{sequence_length}},
    "vocabulary": {{vocabulary}},
    "layers": {{layers}},
    "hidden": {{hidden}},
    "heads": {{heads}},
    "image_size": {{image_size}},
    "classes": {{classes}},
    "total_steps": {{total_steps}},  # optimizer steps for the plan's work at `gpus` GPUs
    "checkpoint_every": {{checkpoint_every}},  # steps; from the plan's spot checkpoint interval
    "log_every": {{log_every}},
    "interrupt_signal": {{interrupt_signal}},
    "seed": {{seed}},
}

EXIT_INTERRUPTED = 75  # EX_TEMPFAIL: checkpointed on an interruption; run again to resume
CHECKPOINT_NAME = re.compile(r"^step-(\d+)\.pt$")
KEEP_CHECKPOINTS = 2


def parse_args():
    parser = argparse.ArgumentParser(description="GPU Planner starter training script: " + SETTINGS["workload"])
    parser.add_argument("--max-steps", type=int, help="stop after this many optimizer steps in all")
    parser.add_argument("--batch-size", type=int, help="per process (default: the plan's micro-batch)")
    parser.add_argument("--scale", choices=["full", "tiny"], default="full", help="tiny: a toy model for smoke runs")
    parser.add_argument("--checkpoint-every", type=int, help="steps between checkpoints")
    parser.add_argument("--log-every", type=int, help="steps between speed lines")
    parser.add_argument("--device", choices=["cpu", "cuda"], help="default: cuda when available")
    parser.add_argument("--step-delay", type=float, default=0.0,
                        help="seconds to sleep after each step (to rehearse an interruption on a toy run)")
    args = parser.parse_args()
    for name in ("max_steps", "batch_size", "checkpoint_every", "log_every"):
        value = getattr(args, name)
        if value is not None and value < 1:
            parser.error("--%s must be at least 1" % name.replace("_", "-"))
    return args


# ---------------------------------------------------------------------------------------------------------------
# The process: single, or one of torchrun's (DDP).
# ---------------------------------------------------------------------------------------------------------------
class Process:
    def __init__(self, device_choice):
        self.world = int(os.environ.get("WORLD_SIZE", "1"))
        self.rank = int(os.environ.get("RANK", "0"))
        local_rank = int(os.environ.get("LOCAL_RANK", "0"))
        use_cuda = torch.cuda.is_available() if device_choice is None else device_choice == "cuda"
        if use_cuda and not torch.cuda.is_available():
            sys.exit("gpuplan-train: --device cuda but PyTorch sees no GPU")
        if use_cuda:
            torch.cuda.set_device(local_rank)
            self.device = torch.device("cuda", local_rank)
        else:
            self.device = torch.device("cpu")
        if self.world > 1:
            import torch.distributed as dist

            dist.init_process_group(backend="nccl" if use_cuda else "gloo")
            self.dist = dist
        else:
            self.dist = None

    @property
    def main(self):
        return self.rank == 0

    def say(self, text):
        if self.main:
            print("gpuplan-train " + text, flush=True)

    def any(self, flag):
        """True on every process when it is true on any (all of them stop at the same step)."""
        if self.dist is None:
            return flag
        value = torch.tensor([1 if flag else 0], device=self.device)
        self.dist.all_reduce(value, op=self.dist.ReduceOp.MAX)
        return bool(value.item())

    def barrier(self):
        if self.dist is not None:
            self.dist.barrier()

    def close(self):
        if self.dist is not None:
            self.dist.destroy_process_group()


# ---------------------------------------------------------------------------------------------------------------
# REPLACE THIS: the model. Two small but real networks built from torch.nn only.
# ---------------------------------------------------------------------------------------------------------------
class BasicBlock(nn.Module):
    def __init__(self, inputs, outputs, stride):
        super().__init__()
        self.conv1 = nn.Conv2d(inputs, outputs, 3, stride=stride, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(outputs)
        self.conv2 = nn.Conv2d(outputs, outputs, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(outputs)
        self.shortcut = nn.Sequential()
        if stride != 1 or inputs != outputs:
            self.shortcut = nn.Sequential(nn.Conv2d(inputs, outputs, 1, stride=stride, bias=False),
                                          nn.BatchNorm2d(outputs))

    def forward(self, x):
        y = F.relu(self.bn1(self.conv1(x)))
        y = self.bn2(self.conv2(y))
        return F.relu(y + self.shortcut(x))


class ResNet(nn.Module):
    """A ResNet-style classifier (ResNet-18's layout at full scale)."""

    def __init__(self, widths, blocks, classes, image_size):
        super().__init__()
        if image_size >= 128:  # ImageNet-sized images: ResNet's 7x7 stride-2 stem and a max-pool
            self.stem = nn.Sequential(nn.Conv2d(3, widths[0], 7, stride=2, padding=3, bias=False),
                                      nn.BatchNorm2d(widths[0]), nn.ReLU(inplace=True), nn.MaxPool2d(3, 2, 1))
        else:
            self.stem = nn.Sequential(nn.Conv2d(3, widths[0], 3, padding=1, bias=False), nn.BatchNorm2d(widths[0]),
                                      nn.ReLU(inplace=True))
        layers = []
        inputs = widths[0]
        for index, (width, count) in enumerate(zip(widths, blocks)):
            for block in range(count):
                layers.append(BasicBlock(inputs, width, 2 if index > 0 and block == 0 else 1))
                inputs = width
        self.layers = nn.Sequential(*layers)
        self.head = nn.Linear(inputs, classes)

    def forward(self, images):
        x = self.layers(self.stem(images))
        return self.head(torch.flatten(F.adaptive_avg_pool2d(x, 1), 1))


class CausalLM(nn.Module):
    """A GPT-style causal language model: nn.TransformerEncoder with a causal mask, pre-norm, tied embeddings."""

    def __init__(self, vocabulary, sequence_length, layers, hidden, heads):
        super().__init__()
        self.tokens = nn.Embedding(vocabulary, hidden)
        self.positions = nn.Embedding(sequence_length, hidden)
        layer = nn.TransformerEncoderLayer(hidden, heads, dim_feedforward=4 * hidden, dropout=0.0, activation="gelu",
                                           batch_first=True, norm_first=True)
        self.blocks = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)
        self.norm = nn.LayerNorm(hidden)
        self.head = nn.Linear(hidden, vocabulary, bias=False)
        self.head.weight = self.tokens.weight
        for embedding in (self.tokens, self.positions):
            nn.init.normal_(embedding.weight, std=0.02)
        mask = torch.triu(torch.full((sequence_length, sequence_length), float("-inf")), diagonal=1)
        self.register_buffer("mask", mask, persistent=False)

    def forward(self, tokens):
        length = tokens.shape[1]
        positions = torch.arange(length, device=tokens.device)
        x = self.tokens(tokens) + self.positions(positions)
        x = self.blocks(x, mask=self.mask[:length, :length])
        return self.head(self.norm(x))


def shape_of(scale):
    """The model and data sizes: the plan's at full scale, a toy's at tiny scale."""
    s = dict(SETTINGS)
    if scale == "tiny":
        s.update(layers=2, hidden=32, heads=2, vocabulary=256, sequence_length=min(32, s["sequence_length"] or 32),
                 image_size=32, classes=10, batch_size=min(8, s["batch_size"]))
    return s


def build_model(shape):
    if SETTINGS["family"] == "cnn":
        tiny = shape["image_size"] <= 32
        widths = [8, 16] if tiny else [64, 128, 256, 512]
        blocks = [1, 1] if tiny else [2, 2, 2, 2]
        return ResNet(widths, blocks, shape["classes"], shape["image_size"])
    return CausalLM(shape["vocabulary"], shape["sequence_length"], shape["layers"], shape["hidden"], shape["heads"])


# ---------------------------------------------------------------------------------------------------------------
# REPLACE THIS: the dataset. Synthetic batches with something to learn; batch `step` of process `rank` is the same
# on every run, so a resumed run sees exactly the data the interrupted one would have.
# With a real dataset: a DistributedSampler (set_epoch) and skipping the batches before the resumed step.
# ---------------------------------------------------------------------------------------------------------------
def batch_of(step, rank, shape, batch_size, device):
    # Made on the device itself: a GPU would otherwise wait for the CPU to make its data.
    generator = torch.Generator(device=device)
    generator.manual_seed(SETTINGS["seed"] * 1000003 + step * 4099 + rank)
    if SETTINGS["family"] == "cnn":
        size, classes = shape["image_size"], shape["classes"]
        labels = torch.randint(0, classes, (batch_size,), generator=generator, device=device)
        # Each class is a bright band of rows on one channel, under noise.
        images = torch.randn(batch_size, 3, size, size, generator=generator, device=device) * 0.5
        rows = torch.arange(size, device=device).view(1, 1, size, 1)
        first = (labels * size // classes).view(-1, 1, 1, 1)
        band = (rows >= first) & (rows < first + max(1, size // classes))
        channel = F.one_hot(labels % 3, 3).view(-1, 3, 1, 1).bool()
        return images + 2.0 * (band & channel).to(images.dtype), labels
    vocabulary, length = shape["vocabulary"], shape["sequence_length"]
    # Each sequence counts up from a random start with a random stride: the next token is predictable.
    start = torch.randint(0, vocabulary, (batch_size, 1), generator=generator, device=device)
    stride = torch.randint(1, 8, (batch_size, 1), generator=generator, device=device)
    tokens = (start + stride * torch.arange(length + 1, device=device).unsqueeze(0)) % vocabulary
    return tokens[:, :-1], tokens[:, 1:]


def loss_of(model, batch):
    inputs, targets = batch
    outputs = model(inputs)
    if SETTINGS["family"] == "cnn":
        return F.cross_entropy(outputs, targets)
    return F.cross_entropy(outputs.reshape(-1, outputs.shape[-1]).float(), targets.reshape(-1))


def learning_rate(step, total):
    """Warm-up then cosine decay, a function of the step alone (nothing to checkpoint)."""
    peak = 3e-4 if SETTINGS["family"] == "transformer" else 1e-3
    warmup = max(1, min(100, total // 10))
    if step < warmup:
        return peak * (step + 1) / warmup
    progress = (step - warmup) / max(1, total - warmup)
    return peak * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * min(1.0, progress))))


# ---------------------------------------------------------------------------------------------------------------
# Precision: autocast and the gradient scaler, on PyTorch 1.13 and 2.x.
# ---------------------------------------------------------------------------------------------------------------
def precision_setup(process):
    """(autocast dtype or None, scaler enabled, what the log says)."""
    wanted = SETTINGS["precision"]
    cuda = process.device.type == "cuda"
    if cuda:
        torch.backends.cuda.matmul.allow_tf32 = wanted == "tf32"
        torch.backends.cudnn.allow_tf32 = wanted == "tf32"
    if wanted == "fp16":
        if cuda:
            return torch.float16, True, "fp16 autocast with a gradient scaler"
        return None, False, "fp16 autocast needs a GPU: on the CPU this run trains in fp32"
    if wanted == "bf16":
        if cuda and not torch.cuda.is_bf16_supported():
            return None, False, "this GPU has no bf16: the run trains in fp32"
        return torch.bfloat16, False, "bf16 autocast"
    if wanted == "tf32" and cuda:
        return None, False, "fp32 with TF32 matrix multiplies"
    return None, False, "fp32"


def autocast(process, dtype):
    if dtype is None:
        return contextlib.nullcontext()
    return torch.autocast(device_type=process.device.type, dtype=dtype)


def make_scaler(enabled):
    if hasattr(torch, "amp") and hasattr(torch.amp, "GradScaler"):  # PyTorch 2.3 and later
        return torch.amp.GradScaler("cuda", enabled=enabled)
    return torch.cuda.amp.GradScaler(enabled=enabled)


# ---------------------------------------------------------------------------------------------------------------
# Checkpoints: step-00000120.pt, written to a temporary file and renamed, so a checkpoint is whole or absent.
# ---------------------------------------------------------------------------------------------------------------
def checkpoint_dir():
    return os.environ.get("GPUPLAN_CHECKPOINT_DIR") or "checkpoints"


def checkpoints(folder):
    """(step, path), newest first."""
    found = []
    try:
        names = os.listdir(folder)
    except FileNotFoundError:
        return found
    for name in names:
        match = CHECKPOINT_NAME.match(name)
        if match:
            found.append((int(match.group(1)), os.path.join(folder, name)))
    return sorted(found, reverse=True)


def write_atomically(path, write):
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    temporary = "%s.tmp-%d" % (path, os.getpid())
    with open(temporary, "wb") as out:
        write(out)
        out.flush()
        os.fsync(out.fileno())
    os.replace(temporary, path)
    with contextlib.suppress(OSError):
        handle = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(handle)
        finally:
            os.close(handle)


def rng_state(process):
    state = {"torch": torch.get_rng_state()}
    if process.device.type == "cuda":
        state["cuda"] = torch.cuda.get_rng_state(process.device)
    return state


def save_checkpoint(folder, step, model, optimizer, scaler, process):
    if not process.main:
        return None
    path = os.path.join(folder, "step-%08d.pt" % step)
    state = {
        "format": "gpuplan-starter-1",
        "step": step,
        "model": unwrap(model).state_dict(),
        "optimizer": optimizer.state_dict(),
        "scaler": scaler.state_dict(),
        "rng": rng_state(process),
        "workload": SETTINGS["workload"],
    }
    write_atomically(path, lambda out: torch.save(state, out))
    for _, old in checkpoints(folder)[KEEP_CHECKPOINTS:]:
        with contextlib.suppress(OSError):
            os.remove(old)
    return path


def load(path, device):
    options = {"map_location": device}
    # Tensors and plain data only, never code. PyTorch 1.13's weights_only loader cannot read a float (an optimizer's
    # settings), so there the file is read as it always was: it is this script's own.
    if int(torch.__version__.split(".")[0]) >= 2 and "weights_only" in inspect.signature(torch.load).parameters:
        options["weights_only"] = True
    return torch.load(path, **options)


def resume(folder, model, optimizer, scaler, process):
    """The step of the newest checkpoint that loads (0: none); a damaged one is said and skipped."""
    for step, path in checkpoints(folder):
        try:
            state = load(path, process.device)
            if state.get("format") != "gpuplan-starter-1" or state.get("step") != step:
                raise ValueError("not a checkpoint of this script")
            unwrap(model).load_state_dict(state["model"])
            optimizer.load_state_dict(state["optimizer"])
            if state["scaler"]:  # empty from a run without the scaler (fp32, bf16, the CPU): start it afresh
                scaler.load_state_dict(state["scaler"])
            torch.set_rng_state(state["rng"]["torch"].cpu())
            if process.device.type == "cuda" and "cuda" in state["rng"]:
                torch.cuda.set_rng_state(state["rng"]["cuda"].cpu(), process.device)
        except Exception as error:  # a truncated file, or one of another model: fall back to the one before
            said = (str(error).strip().splitlines() or [type(error).__name__])[0][:200]
            # Set aside, kept for a look: left in place it would count among the newest and crowd out new ones.
            if process.main:
                with contextlib.suppress(OSError):
                    os.replace(path, path + ".unreadable")
            process.say("checkpoint %s does not load (%s): set aside as %s.unreadable, trying the one before" %
                        (os.path.basename(path), said, os.path.basename(path)))
            continue
        process.say("resumed from step %d (%s)" % (step, os.path.basename(path)))
        return step
    return 0


def unwrap(model):
    return model.module if hasattr(model, "module") else model


# ---------------------------------------------------------------------------------------------------------------
# Interruptions: the signal (or the preempt file) is acted on at the next step boundary.
# ---------------------------------------------------------------------------------------------------------------
class Interruption:
    def __init__(self):
        self.why = None
        name = (os.environ.get("GPUPLAN_INTERRUPT_SIGNAL") or SETTINGS["interrupt_signal"]).upper()
        name = name if name.startswith("SIG") else "SIG" + name
        self.signal = getattr(signal, name, None)
        if not isinstance(self.signal, signal.Signals):
            sys.exit("gpuplan-train: GPUPLAN_INTERRUPT_SIGNAL names no signal: " + name)
        for each in {self.signal, signal.SIGTERM}:
            signal.signal(each, self.on_signal)
        self.preempt_file = os.environ.get("GPUPLAN_PREEMPT_FILE") or None
        # A preempt file left by an earlier run on the same disk (a stopped instance started again) is no notice: only
        # one that appears, or is written again, while this process runs is.
        self.stale = self.identity()

    def identity(self):
        if not self.preempt_file:
            return None
        try:
            found = os.stat(self.preempt_file)
        except OSError:
            return None
        return (found.st_ino, found.st_mtime_ns, found.st_size)

    def on_signal(self, number, frame):
        self.why = self.why or signal.Signals(number).name

    def requested(self):
        if self.why is None and self.preempt_file:
            now = self.identity()
            if now is not None and now != self.stale:
                self.why = "preempt file " + self.preempt_file
        return self.why is not None


def write_ready(step):
    ready = os.environ.get("GPUPLAN_CHECKPOINT_READY")
    if ready:
        write_atomically(ready, lambda out: out.write(b"%d\n" % step))


def main():
    args = parse_args()
    interruption = Interruption()
    process = Process(args.device)
    torch.manual_seed(SETTINGS["seed"])
    shape = shape_of(args.scale)
    batch_size = args.batch_size or shape["batch_size"]
    total = args.max_steps or SETTINGS["total_steps"]
    every = args.checkpoint_every or SETTINGS["checkpoint_every"]
    log_every = args.log_every or SETTINGS["log_every"]
    per_sample = shape["sequence_length"] if SETTINGS["family"] == "transformer" else 1
    unit = "tokens/s" if SETTINGS["family"] == "transformer" else "samples/s"

    model = build_model(shape).to(process.device)
    if process.dist is not None:
        ids = [process.device.index] if process.device.type == "cuda" else None
        model = nn.parallel.DistributedDataParallel(model, device_ids=ids)
    decay = [p for p in model.parameters() if p.dim() >= 2]
    other = [p for p in model.parameters() if p.dim() < 2]
    optimizer = torch.optim.AdamW([{"params": decay, "weight_decay": 0.1}, {"params": other, "weight_decay": 0.0}],
                                  lr=learning_rate(0, total))
    dtype, scaled, said = precision_setup(process)
    scaler = make_scaler(scaled)
    folder = checkpoint_dir()
    parameters = sum(p.numel() for p in unwrap(model).parameters())
    process.say("%s: %s, %.1fM parameters, %s on %s x%d, batch %d per process, %d steps, checkpoint every %d in %s" %
                (SETTINGS["workload"], SETTINGS["family"], parameters / 1e6, said, process.device.type, process.world,
                 batch_size, total, every, os.path.abspath(folder)))

    step = resume(folder, model, optimizer, scaler, process)
    saved = step
    ran = 0
    model.train()
    last_time, last_step = time.time(), step
    while step < total:
        for group in optimizer.param_groups:
            group["lr"] = learning_rate(step, total)
        batch = batch_of(step, process.rank, shape, batch_size, process.device)
        with autocast(process, dtype):
            loss = loss_of(model, batch)
        optimizer.zero_grad(set_to_none=True)
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
        step += 1
        ran += 1
        if step % log_every == 0 or step == total:
            if process.device.type == "cuda":
                torch.cuda.synchronize(process.device)
            now = time.time()
            speed = (step - last_step) * batch_size * per_sample * process.world / max(now - last_time, 1e-9)
            process.say("step %d/%d loss %.4f %s %.1f" % (step, total, loss.item(), unit, speed))
            last_time, last_step = now, step
        if step % every == 0 or step == total:
            save_checkpoint(folder, step, model, optimizer, scaler, process)
            saved = step
        if args.step_delay > 0:
            time.sleep(args.step_delay)
        if step < total and process.any(interruption.requested()):
            if saved != step:
                save_checkpoint(folder, step, model, optimizer, scaler, process)
            process.barrier()
            if process.main:
                write_ready(step)
            process.say("interrupted (%s) at step %d: checkpoint saved, ran %d steps in this process; exiting with %d" %
                        (interruption.why or "another process", step, ran, EXIT_INTERRUPTED))
            process.close()
            return EXIT_INTERRUPTED
    process.barrier()
    process.say("finished at step %d, ran %d steps in this process" % (step, ran))
    process.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
