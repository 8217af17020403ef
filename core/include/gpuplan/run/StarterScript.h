#pragma once

#include "gpuplan/core/Result.h"
#include "gpuplan/run/RunSpec.h"

#include <cstdint>
#include <optional>
#include <string>

// A starter training script made from a plan, for users whose code does not checkpoint yet (issue 27): a small but
// real PyTorch model of the plan's kind (a ResNet-style CNN, or a GPT-style causal language model) on synthetic
// data, with the parts a spot run needs — checkpoints in $GPUPLAN_CHECKPOINT_DIR every N steps, the interruption
// signal ($GPUPLAN_INTERRUPT_SIGNAL, and SIGTERM) or $GPUPLAN_PREEMPT_FILE acted on at the next step boundary
// (checkpoint, the step written to $GPUPLAN_CHECKPOINT_READY, exit 75), resume from the newest checkpoint that loads,
// and one speed line in a fixed format that the run monitor reads. The user replaces its "REPLACE THIS" model and
// dataset sections.
//
// How a front end makes one (`gpuplan run --init`, the Run page):
//   1. settings = starterSettingsOf(plan, option)            the plan's figures (the user may change them)
//   2. text = starterScript(settings, template)              template: the bundled scripts folder's
//                                                            kStarterTemplateFile (next to gpuplan-run.sh)
//   3. write text to WORKDIR/kStarterScriptFile
//   4. spec = starterRunSpec(settings, WORKDIR)              the command, the speed pattern, the results
//
// The template (resources/scripts/gpuplan-train-starter.py) has these placeholders, each replaced by a checked
// value: {{workload_name}} {{family}} {{precision}} {{interrupt_signal}} (Python string literals), {{gpus}}
// {{batch_size}} {{sequence_length}} {{vocabulary}} {{layers}} {{hidden}} {{heads}} {{image_size}} {{classes}}
// {{total_steps}} {{checkpoint_every}} {{log_every}} {{seed}} (decimal integers).
//
// The script runs with PyTorch 1.13 and 2.x and nothing else; `python3 train.py --help` lists its flags (--scale tiny
// --device cpu --max-steps N ... shrink it to a smoke run). Its speed line:
//   gpuplan-train step 120/1000 loss 2.3130 samples/s 512.3        (tokens/s for "transformer")
// Every function here is pure (no I/O) and thread-safe.
namespace gpuplan::core {

struct PlanDocument;

/// The bundled template's file name, in the scripts folder beside gpuplan-run.sh.
inline constexpr const char* kStarterTemplateFile = "gpuplan-train-starter.py";
/// The file name the script is written to in the run's working directory (starterRunSpec's command runs it).
inline constexpr const char* kStarterScriptFile = "train.py";
/// The starter's exit status after checkpointing on an interruption (EX_TEMPFAIL): run it again to resume.
inline constexpr int kStarterInterruptedExit = 75;

/// What the starter script is made with. The speed line counts samples for "cnn" and tokens for "transformer".
struct StarterSettings
{
    std::string workloadName;       // said in the script's log and --help; any text (a Python string literal)
    std::string family = "cnn";     // "cnn" (ResNet-style, synthetic images) or "transformer" (GPT-style causal LM)
    std::string precision = "bf16"; // "bf16" (autocast), "fp16" (autocast + GradScaler), "fp32", "tf32"
    int gpus = 1;                   // processes the steps are counted for: torchrun --nproc_per_node (one node)
    int batchSize = 32;             // per GPU (the plan's micro-batch), in samples or sequences
    int sequenceLength = 0;         // "transformer": tokens per sequence (1..1048576); "cnn": unused
    int vocabulary = 0;             // "transformer" (2..10000000)
    int layers = 0;                 // "transformer" (1..1000)
    int hidden = 0;                 // "transformer" (1..65536, a multiple of heads)
    int heads = 0;                  // "transformer"
    int imageSize = 224;            // "cnn": square images, pixels (8..4096)
    int classes = 1000;             // "cnn" (2..1000000)
    std::int64_t totalSteps = 1000; // optimizer steps of the whole run at `gpus` GPUs (1..10^12)
    std::int64_t checkpointEvery = 1000;  // steps between checkpoints (1..10^12)
    int logEvery = 10;                    // steps between speed lines (1..1000000)
    std::string interruptSignal = "USR1"; // the default of $GPUPLAN_INTERRUPT_SIGNAL: one of interruptSignals()
    int seed = 1234;                      // data and initialisation (0..2^31-1)
};

/// The settings for `plan` on one of its options (`option`: an index into its results; nullopt: the plan's choice,
/// else its recommendation, as plannedRunOf picks). From the plan:
/// - family: model class cnn/detector -> "cnn", encoder/decoder -> "transformer" (else by task: nlp/llm ->
///   "transformer");
/// - precision: the option's ("amp" -> "fp16"; "fp8" -> "bf16", the starter has no FP8; none -> "bf16");
/// - gpus: the option's GPUs on one instance (gpus / nodes); batchSize: the option's micro-batch (memory model),
///   else the workload's;
/// - the transformer's shape, sequence length and vocabulary from the workload (GPT-2 124M's where it has none);
/// - totalSteps: the workload's samples (or tokens) over every epoch / (batchSize x gpus [x sequenceLength]),
///   rounded up; 1000 when the plan states no work;
/// - checkpointEvery: the option's spot checkpoint interval (Daly's, hours) when it has a spot mode, else the plan's
///   checkpoint assumption, else 1 hour, turned into steps with the option's planned throughput; 1000 steps when the
///   throughput is unknown; never more than totalSteps;
/// - logEvery: about every 10 seconds at the planned throughput (1..100 steps), else 10.
/// Never fails: what the plan lacks takes the default above. Check the result with checkStarterSettings.
StarterSettings starterSettingsOf(const PlanDocument& plan, std::optional<int> option = std::nullopt);

/// Whether every value can go into the script: InvalidArgument "error.run.starter_bad_setting" {setting, value},
/// `where` the setting's name ("family", "batch_size"), for a name or number out of its range above.
Status checkStarterSettings(const StarterSettings& settings);

/// The script: `templateText` with every placeholder replaced. Strings go in as JSON-escaped (valid Python) string
/// literals, numbers as decimals, and only after checkStarterSettings accepts them, so no setting can add code.
/// Errors: checkStarterSettings's; SchemaViolation "error.run.starter_unknown_placeholder" {placeholder} when the
/// template has a {{name}} this version does not fill, "error.run.starter_missing_placeholder" {placeholder} when it
/// lacks one (not the template of this version), `where` kStarterTemplateFile.
Result<std::string> starterScript(const StarterSettings& settings, const std::string& templateText);

/// The "custom" pattern that reads the script's speed line: unit "samples" for "cnn", "tokens" for "transformer".
ThroughputPattern starterThroughput(const StarterSettings& settings);

/// A run spec for the script in `workdir`: command `python3 train.py` (`torchrun --standalone --nproc_per_node=N
/// train.py` when gpus > 1), the speed pattern, results ["checkpoints"] (its checkpoint folder, which the spot
/// handling's checkpointDir names too, with the settings' signal). Everything else is left at its default.
RunSpec starterRunSpec(const StarterSettings& settings, const std::string& workdir);

} // namespace gpuplan::core
