# Run at build time (cmake -P): the built `starling` writes its manual pages and shell completions
# from its command reference into OUTPUT_DIR, laid out as they are installed under share/.
# Variables: STARLING (the executable), OUTPUT_DIR.
foreach(variable IN ITEMS STARLING OUTPUT_DIR)
    if(NOT DEFINED ${variable})
        message(FATAL_ERROR "WriteCliDocs.cmake needs -D${variable}=...")
    endif()
endforeach()

execute_process(COMMAND "${STARLING}" man-pages "${OUTPUT_DIR}/man/man1"
    OUTPUT_QUIET RESULT_VARIABLE result ERROR_VARIABLE error)
if(NOT result EQUAL 0)
    message(FATAL_ERROR "starling man-pages failed (${result}): ${error}")
endif()

set(completion_files
    "bash\;bash-completion/completions/starling"
    "zsh\;zsh/vendor-completions/_starling"
    "fish\;fish/vendor_completions.d/starling.fish")
foreach(entry IN LISTS completion_files)
    list(GET entry 0 shell)
    list(GET entry 1 file)
    get_filename_component(directory "${OUTPUT_DIR}/${file}" DIRECTORY)
    file(MAKE_DIRECTORY "${directory}")
    execute_process(COMMAND "${STARLING}" completion ${shell}
        OUTPUT_FILE "${OUTPUT_DIR}/${file}" RESULT_VARIABLE result ERROR_VARIABLE error)
    if(NOT result EQUAL 0)
        message(FATAL_ERROR "starling completion ${shell} failed (${result}): ${error}")
    endif()
endforeach()
