// The words of core's error.azureml.*, step.azureml.* and unsupported.azureml.* keys (the managed jobs of
// core/cloud/providers/azure).
#include "wording/providers/ProviderWording.h"

#include "wording/Format.h"

#include <QCoreApplication>

namespace gpuplan::ui::providerwording {

namespace {

/// The translation context of these words.
struct AzureMlText
{
    Q_DECLARE_TR_FUNCTIONS(AzureMlText)
};

} // namespace

QString azureMlErrorText(const core::Reason& reason)
{
    if (!reason.key.starts_with("error.azureml.")) {
        return {};
    }
    const ReasonParams p(reason.params);
    QString advice;
    if (reason.key == "error.azureml.no_workspace") {
        advice = AzureMlText::tr("Azure Machine Learning jobs need a workspace: create one in Azure Machine Learning "
                                 "studio (ml.azure.com) or the Azure portal (Create a resource -> Azure Machine "
                                 "Learning), in the region you launch in, then enter it as \"<resource "
                                 "group>/<workspace name>\" in the field ml_workspace of the Azure credential "
                                 "(gpuplan creds set azure)");
    } else if (reason.key == "error.azureml.workspace_invalid") {
        advice = AzureMlText::tr("the ml_workspace field \"%1\" is not \"<resource group>/<workspace name>\": "
                                 "correct it with gpuplan creds set azure")
                     .arg(p.text("workspace"));
    } else if (reason.key == "error.azureml.workspace_not_found") {
        advice = AzureMlText::tr("the Azure Machine Learning workspace %1 does not exist in this subscription (or the "
                                 "app cannot see it): check the resource group and name in Azure Machine Learning "
                                 "studio, or create the workspace, then correct ml_workspace with gpuplan creds set "
                                 "azure")
                     .arg(p.text("workspace"));
    } else if (reason.key == "error.azureml.wrong_region") {
        advice = AzureMlText::tr("the workspace %1 is in %2, but the job was to run in %3: an Azure Machine Learning "
                                 "job runs in its workspace's region, so choose %2, or set ml_workspace to a "
                                 "workspace in %3")
                     .arg(p.text("workspace"), p.text("workspace_region"), p.text("region"));
    } else if (reason.key == "error.azureml.instance_type") {
        advice = AzureMlText::tr("%1 is not an Azure Machine Learning offer: it is \"azureml/<VM size>\"")
                     .arg(p.text("instance_type"));
    } else if (reason.key == "error.azureml.job_name") {
        advice = AzureMlText::tr("%1 cannot name an Azure Machine Learning job: letters, digits, - and _ only, a "
                                 "letter or digit first, at most 255 characters")
                     .arg(p.text("name"));
    } else if (reason.key == "error.azureml.no_command") {
        advice = AzureMlText::tr("the job has no command to run");
    } else if (reason.key == "error.azureml.no_job") {
        advice = AzureMlText::tr("an Azure Machine Learning launch needs a job: a container image and a command");
    } else if (reason.key == "error.azureml.tag_invalid") {
        advice =
            AzureMlText::tr("the tag \"%1\" cannot be set on the job (empty, or GPU Planner's own)").arg(p.text("tag"));
    } else if (reason.key == "error.azureml.timeout_past") {
        advice = AzureMlText::tr("the job's end time has already passed: choose a later end time");
    } else if (reason.key == "error.azureml.url_refused") {
        advice = AzureMlText::tr("Azure Machine Learning answered %1 with the address %2, which is neither https nor "
                                 "a local address: GPU Planner did not follow it")
                     .arg(p.text("action"), p.text("url"));
    } else if (reason.key == "error.azureml.no_discovery") {
        advice = AzureMlText::tr("the workspace %1 names no discovery URL, so its job logs cannot be found: read "
                                 "them in Azure Machine Learning studio")
                     .arg(p.text("workspace"));
    } else if (reason.key == "error.azureml.cursor") {
        advice = AzureMlText::tr("\"%1\" is not a position in the job's log").arg(p.text("cursor"));
    } else if (reason.key == "error.azureml.quota") {
        const QString type = p.has("instance_type") ? p.text("instance_type") : AzureMlText::tr("this VM size");
        if (p.text("spot") == QStringLiteral("1")) {
            advice = AzureMlText::tr("the job's cluster would exceed the workspace's low-priority vCPU quota for %1 "
                                     "in %2: in Azure Machine Learning studio open Quota (or the portal's Usage + "
                                     "quotas, provider Machine Learning) and request more low-priority cores, or "
                                     "run on-demand")
                         .arg(type, p.text("region"));
        } else {
            advice = AzureMlText::tr("the job's cluster would exceed Azure Machine Learning's vCPU quota of the VM "
                                     "family of %1 in %2 (limit %3, in use %4): in Azure Machine Learning studio "
                                     "open Quota (or the portal's Usage + quotas, provider Machine Learning) and "
                                     "request more cores of that family in the region")
                         .arg(type, p.text("region"), p.text("limit"), p.text("usage"));
        }
    } else if (reason.key == "error.azureml.permission") {
        advice = AzureMlText::tr("the app may not do %1 in the workspace: give its service principal the role "
                                 "AzureML Data Scientist on the workspace (Access control (IAM) -> Add role "
                                 "assignment)")
                     .arg(p.has("permission") ? p.text("permission") : p.text("action"));
    } else {
        return {};
    }
    QString said = p.text("code");
    if (p.has("said")) {
        said = said.isEmpty() ? p.text("said") : AzureMlText::tr("%1: %2").arg(said, p.text("said"));
    }
    if (said.isEmpty()) {
        return advice;
    }
    return AzureMlText::tr("%1 (Azure: %2)").arg(advice, said);
}

QString azureMlStepText(const std::string& key, const ReasonParams& p)
{
    if (!key.starts_with("step.azureml.")) {
        return {};
    }
    if (key == "step.azureml.cluster_found") {
        return AzureMlText::tr("found compute cluster %1 (%2, %3)")
            .arg(p.text("cluster"), p.text("size"), p.text("priority"));
    }
    if (key == "step.azureml.cluster_created") {
        return AzureMlText::tr("created compute cluster %1 (%2, %3): 0 to 1 node, scaled down to none 2 minutes "
                               "after its last job, so it costs nothing idle")
            .arg(p.text("cluster"), p.text("size"), p.text("priority"));
    }
    if (key == "step.azureml.environment_found") {
        return AzureMlText::tr("found environment %1 of image %2").arg(p.text("environment"), p.text("image"));
    }
    if (key == "step.azureml.environment_created") {
        return AzureMlText::tr("created environment %1 of image %2").arg(p.text("environment"), p.text("image"));
    }
    if (key == "step.azureml.job_found") {
        return AzureMlText::tr("job %1 was already submitted (%2): nothing sent again")
            .arg(p.text("job"), p.text("status"));
    }
    if (key == "step.azureml.job_submitted") {
        return AzureMlText::tr("submitted command job %1 to cluster %2").arg(p.text("job"), p.text("cluster"));
    }
    if (key == "step.azureml.timeout") {
        return AzureMlText::tr("Azure ends the job after %1 seconds (its timeout)").arg(p.text("seconds"));
    }
    return {};
}

QString azureMlUnsupportedText(const std::string& key)
{
    if (key == "unsupported.azureml.subscription") {
        return AzureMlText::tr("Azure Machine Learning jobs are paid as they run; there is no prepaid job");
    }
    if (key == "unsupported.azureml.dry_run") {
        return AzureMlText::tr("Azure Machine Learning has no check-only job submission");
    }
    if (key == "unsupported.azureml.terminate_on_shutdown") {
        return AzureMlText::tr("a job has no machine to shut down: it ends when its command exits");
    }
    if (key == "unsupported.azureml.key_import") {
        return AzureMlText::tr("a job has no machine to log in to, so no SSH key is imported");
    }
    if (key == "unsupported.azureml.ssh_source_restriction") {
        return AzureMlText::tr("a job has no machine to log in to, so there is no SSH rule");
    }
    return {};
}

} // namespace gpuplan::ui::providerwording
