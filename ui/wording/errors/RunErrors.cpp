// The words of core's error.run.* errors: a run's spec, its sync, its remote job, its results.
#include "wording/errors/ErrorWording.h"

namespace gpuplan::ui::errorwording {

namespace {

/// The translation context of these errors.
struct RunErrors
{
    Q_DECLARE_TR_FUNCTIONS(RunErrors)
};

} // namespace

QString runErrorText(const core::Reason& reason)
{
    const ReasonParams p(reason.params);
    const std::string& key = reason.key;
    // The training log's speed (core/run/LogThroughput.cpp).
    if (key == "error.run.bad_regex") {
        return RunErrors::tr("the regular expression \"%1\" does not compile (%2): write it in ECMAScript syntax, "
                             "with the number in its first group, e.g. ([0-9.]+) samples/s")
            .arg(p.text("regex"), p.text("said"));
    }
    if (key == "error.run.regex_no_group") {
        return RunErrors::tr("the regular expression \"%1\" has no group: put the number in parentheses, e.g. "
                             "([0-9.]+) samples/s")
            .arg(p.text("regex"));
    }
    if (key == "error.run.unknown_preset") {
        return RunErrors::tr("unknown log preset \"%1\": choose lightning, hf_trainer, timm, ultralytics or custom")
            .arg(p.text("preset"));
    }
    if (key == "error.run.unknown_unit") {
        return RunErrors::tr("unknown unit \"%1\": the number counts samples, tokens or steps").arg(p.text("unit"));
    }
    // The working directory that goes to the instance (core/run/WorkdirFiles.cpp).
    if (key == "error.run.workdir_not_folder") {
        return RunErrors::tr("the working directory is not a folder: choose the folder that holds the training code");
    }
    if (key == "error.run.folder_unreadable") {
        return RunErrors::tr("cannot list this folder (%1): give yourself read permission, or exclude it")
            .arg(p.text("said"));
    }
    if (key == "error.run.gitignore_unreadable") {
        return RunErrors::tr("cannot read this .gitignore (%1): give yourself read permission").arg(p.text("said"));
    }
    // The spec (core/run/RunSpec.cpp).
    if (key == "error.run.no_command") {
        return RunErrors::tr("no training command: say what runs on the instance, e.g. python train.py");
    }
    if (key == "error.run.no_workdir") {
        return RunErrors::tr("the working directory %1 is not a folder here").arg(p.text("path"));
    }
    if (key == "error.run.no_dataset") {
        return RunErrors::tr("the dataset %1 is neither a folder here nor an object storage URL (s3://, cos://, "
                             "oss://, obs://, gs://, az://)")
            .arg(p.text("path"));
    }
    if (key == "error.run.unknown_storage") {
        return RunErrors::tr("%1: unknown object storage \"%2\" (s3, cos, oss, obs, gs or az)")
            .arg(p.text("url"), p.text("scheme"));
    }
    if (key == "error.run.empty_result_path") {
        return RunErrors::tr("an empty result path: name a file or folder of the working directory");
    }
    if (key == "error.run.result_outside_workdir") {
        return RunErrors::tr("%1 climbs out of the working directory: give a path inside it, or an absolute one")
            .arg(p.text("path"));
    }
    if (key == "error.run.spec_not_object") {
        return RunErrors::tr("the run settings are not a JSON object");
    }
    if (key == "error.run.spec_member") {
        return RunErrors::tr("the run setting \"%1\" must be a %2").arg(p.text("member"), p.text("expected"));
    }
    if (key == "error.run.bad_connection") {
        return RunErrors::tr("the run's login (user, host, port) is not readable: start the run again");
    }
    // On the instance (core/run/RunWorkflow.cpp).
    if (key == "error.run.no_helper") {
        return RunErrors::tr("cannot read GPU Planner's run helper (resources/scripts/gpuplan-run.sh): reinstall "
                             "GPU Planner");
    }
    if (key == "error.run.no_home") {
        return RunErrors::tr("cannot learn the home folder on the instance: %1").arg(p.text("said"));
    }
    if (key == "error.run.cannot_prepare") {
        return RunErrors::tr("cannot make the run's folders on the instance (is the disk full?): %1")
            .arg(p.text("said"));
    }
    if (key == "error.run.cannot_start") {
        return RunErrors::tr("the job did not start on the instance: %1").arg(p.text("said"));
    }
    if (key == "error.run.poll_failed") {
        return RunErrors::tr("cannot read the run's state on the instance: %1").arg(p.text("said"));
    }
    if (key == "error.run.bad_poll") {
        return RunErrors::tr("the instance answered something other than GPU Planner's run helper (%1 unreadable): "
                             "%2")
            .arg(p.text("what"), p.text("said"));
    }
    if (key == "error.run.cannot_stop") {
        return RunErrors::tr("the job could not be stopped, even with SIGKILL: %1").arg(p.text("said"));
    }
    if (key == "error.run.cannot_list_results") {
        return RunErrors::tr("cannot list the results on the instance: %1").arg(p.text("said"));
    }
    if (key == "error.run.cannot_write_sums") {
        return RunErrors::tr("cannot write the checksums (SHA256SUMS) beside the results");
    }
    if (key == "error.run.cannot_write_list") {
        return RunErrors::tr("cannot write a temporary file here (is /tmp full?)");
    }
    if (key == "error.run.cancelled") {
        return RunErrors::tr("cancelled");
    }
    if (key == "error.run.cannot_start_local") {
        return RunErrors::tr("cannot start %1 on this computer").arg(p.text("program"));
    }
    if (key == "error.run.rsync_unavailable") {
        const QString why = p.text("why");
        const QString because = why == QLatin1String("jump_host") ? RunErrors::tr("rsync cannot go through a jump host")
                                : why == QLatin1String("no_local_rsync")
                                    ? RunErrors::tr("this computer has no rsync or ssh")
                                : why == QLatin1String("no_remote_rsync") ? RunErrors::tr("the instance has no rsync")
                                                                          : why;
        return RunErrors::tr("%1: choose SFTP, or automatic").arg(because);
    }
    if (key == "error.run.rsync_failed") {
        return RunErrors::tr("rsync failed (exit %1): %2").arg(p.text("code"), p.text("said"));
    }
    if (key == "error.run.no_tensorboard_logdir") {
        return RunErrors::tr("this run has no TensorBoard folder: set one (e.g. runs or lightning_logs) before it "
                             "starts");
    }
    if (key == "error.run.no_tensorboard") {
        return RunErrors::tr("TensorBoard is not installed on the instance: add pip install tensorboard to the "
                             "setup commands (%1)")
            .arg(p.text("said"));
    }
    if (key == "error.run.tensorboard_not_listening") {
        return RunErrors::tr("TensorBoard was started but does not answer after a minute: see tensorboard.log in "
                             "the run's folder on the instance");
    }
    return {};
}

} // namespace gpuplan::ui::errorwording
