#pragma once

// "Test Cloud": a provider that exists only in the tests, to prove that a provider joins GPU Planner by its folder
// and one registry line (tests/conformance/TestProviderConformance.cpp) and passes the conformance suite that EC2
// and CVM pass. Its API is a small JSON REST API of our own, served by fake_testcloud.py beside this file; it is
// shaped like the REST clouds still to come (Lambda, Paperspace, Huawei): bearer key, HTTP status for errors.

#include "gpuplan/cloud/ProviderDescriptor.h"

namespace gpuplan::testing {

const core::ProviderDescriptor& testCloudDescriptor();

} // namespace gpuplan::testing
