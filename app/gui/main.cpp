// gpuplanner: the desktop application. All of it lives in ui/ and core/.
#include "GuiApplication.h"

#include "gpuplan/secrets/Credential.h"

#include <cstdio>

int main(int argc, char** argv)
{
    // Before any credential is loaded: none of this process's memory goes into a core file.
    if (gpuplan::core::Status kept = gpuplan::core::keepSecretsOutOfCoreDumps(); !kept) {
        std::fprintf(stderr, "gpuplanner: warning: %s\n", kept.error().message().c_str());
    }
    return gpuplan::ui::runGui(argc, argv);
}
