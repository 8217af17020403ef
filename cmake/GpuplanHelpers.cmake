# Helpers shared by every target of the project.

# Warnings are errors for our own code (third-party headers come in as SYSTEM includes). Designated
# initializers that leave members to their defaults are idiomatic C++20, hence no missing-field-initializers.
function(gpuplan_set_warnings target)
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wno-missing-field-initializers
                                             -Werror)
    if(GPUPLAN_SANITIZE AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
        # GCC's flow analysis under -fsanitize reports uninitialized reads inside libstdc++ (<regex>, <functional>)
        # that do not exist (seen with GCC 12 in <regex>); the normal build keeps the warning.
        target_compile_options(${target} PRIVATE -Wno-maybe-uninitialized)
    endif()
endfunction()

# gpuplan_add_test(NAME <name> SOURCES <files...> LIBS <libs...> [LABELS <labels...>] [ENVIRONMENT <k=v...>])
# One QtTest executable per test class, registered with ctest under the same name.
function(gpuplan_add_test)
    cmake_parse_arguments(ARG "" "NAME" "SOURCES;LIBS;LABELS;ENVIRONMENT" ${ARGN})
    add_executable(${ARG_NAME} ${ARG_SOURCES})
    target_link_libraries(${ARG_NAME} PRIVATE Qt6::Test ${ARG_LIBS})
    target_compile_definitions(${ARG_NAME} PRIVATE GPUPLAN_SOURCE_DIR="${CMAKE_SOURCE_DIR}"
                                                   GPUPLAN_BINARY_DIR="${CMAKE_BINARY_DIR}")
    set_target_properties(${ARG_NAME} PROPERTIES AUTOMOC ON RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests)
    gpuplan_set_warnings(${ARG_NAME})
    add_test(NAME ${ARG_NAME} COMMAND ${ARG_NAME})
    set_tests_properties(${ARG_NAME} PROPERTIES LABELS "${ARG_LABELS}"
                                                ENVIRONMENT
                                                "QT_QPA_PLATFORM=offscreen;XDG_CONFIG_HOME=${CMAKE_BINARY_DIR}/tests/home/config;XDG_DATA_HOME=${CMAKE_BINARY_DIR}/tests/home/data;${ARG_ENVIRONMENT}")
endfunction()
