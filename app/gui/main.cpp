// gpuplanner: the desktop application. All of it lives in ui/ and core/.
#include "GuiApplication.h"
#include "wording/ErrorText.h"

#include "gpuplan/secrets/Credential.h"

#include <cstdio>

int main(int argc, char** argv)
{
    // Before any credential is loaded: none of this process's memory goes into a core file.
    if (gpuplan::core::Status kept = gpuplan::core::keepSecretsOutOfCoreDumps(); !kept) {
        std::fprintf(
            stderr, "gpuplanner: warning: %s\n", gpuplan::ui::errorMessage(kept.error()).toLocal8Bit().constData());
    }
    return gpuplan::ui::runGui(argc, argv);
}
