#pragma once

#include "gpuplan/core/Result.h"
#include "gpuplan/net/HttpClient.h"

#include <string>

namespace gpuplan::core {

/// Where this computer's public address is asked for: https://checkip.amazonaws.com/ (AWS's, answers the
/// caller's address as one line), or $GPUPLAN_CHECKIP_URL (which must pass checkEndpoint).
std::string checkIpUrl();

/// This computer's public address as the internet sees it, as a CIDR for one host ("203.0.113.7/32",
/// "2001:db8::7/128"): the address SSH is opened to. Network errors pass through; ProviderRefused naming the URL
/// when the answer is not one address.
Result<std::string> publicAddressCidr(HttpTransport& http, const std::string& url = checkIpUrl());

/// "203.0.113.7/32" or "2001:db8::/64" is a CIDR; InvalidArgument naming it otherwise, and for 0.0.0.0/0 and
/// ::/0 (which would open SSH to everyone).
/// `ipv4Only`: an IPv6 range is refused too, for a firewall rule that takes IPv4 only (EC2's CidrIp, CVM's
/// CidrBlock as we send them).
Status checkSshSourceCidr(const std::string& cidr, bool ipv4Only = false);

/// The SSH source the user typed, as a CIDR: an address alone is that one host ("198.51.100.1" -> "198.51.100.1/32",
/// "2001:db8::1" -> "2001:db8::1/128"); anything else (a CIDR, or text checkSshSourceCidr will name) stays as it
/// is, without the spaces around it.
std::string sshSourceCidrOf(std::string_view text);

/// $GPUPLAN_ENDPOINT_<PROVIDER> (GPUPLAN_ENDPOINT_AWS, GPUPLAN_ENDPOINT_TENCENT): a base URL that replaces the
/// provider's public endpoints (a VPC endpoint, or a local fake in tests); empty when unset.
std::string endpointOverride(const std::string& provider);

} // namespace gpuplan::core
