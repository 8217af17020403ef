#pragma once

#include "gpuplan/cloud/ProviderDescriptor.h"

#include <memory>

namespace gpuplan::core {

/// Google Compute Engine over its REST API v1 (JSON, OAuth2 bearer tokens of a service account: AccessKey::id is the
/// key file's client_email, AccessKey::secret its private_key PEM; settings "private_key_id" and "project_id" are
/// optional). The project is settings["project_id"], else the one named in client_email
/// (<name>@<project>.iam.gserviceaccount.com). An instance's id is "<zone>/<name>" (gcp::instanceRef), its name the
/// launch's client token. With ProviderContext::endpoint E, the API is E + "/compute/v1" and tokens come from
/// E + "/token".
std::unique_ptr<CloudProvider> makeGceProvider(ProviderContext context);
/// Google Cloud: what it is and lacks (ProviderRegistry); its credential is also read for prices (core/prices). Its
/// managedJobs is vertexDescriptor().
const ProviderDescriptor& gcpDescriptor();

/// Vertex AI custom jobs as a ManagedJobService, with the same credential as Compute Engine. A job's id is the numeric
/// id Vertex gives it (the last segment of its name), its displayName and its gpuplanner-token label the launch's
/// client token (customJobs.create takes no request id: launch() lists by that label before it creates). With
/// ProviderContext::endpoint E, the jobs API is E + "/aiplatform/v1", Cloud Logging E + "/logging/v2" and tokens come
/// from E + "/token".
std::unique_ptr<CloudProvider> makeVertexJobs(ProviderContext context);
/// Vertex AI: id "gcp", kind Job, what it lacks.
const ProviderDescriptor& vertexDescriptor();

} // namespace gpuplan::core
