// gpuplanner: the desktop application. All of it lives in ui/ and core/.
#include "GuiApplication.h"

int main(int argc, char** argv)
{
    return gpuplan::ui::runGui(argc, argv);
}
