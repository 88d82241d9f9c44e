# hb_component.cmake: hb_add_component(): one object library per folder of the library, with the settings every part shares.
# The shared and static libraries are made of every component's objects
# (global property HB_COMPONENTS). Components name the internal headers they
# use with hb_component_uses(), so an include the layering forbids does not
# compile: core sees no morphology or simulation header.
function(hb_add_component name)
  add_library(${name} OBJECT ${ARGN})
  set_target_properties(${name} PROPERTIES POSITION_INDEPENDENT_CODE ON
    C_VISIBILITY_PRESET hidden CUDA_VISIBILITY_PRESET hidden)
  target_compile_definitions(${name} PRIVATE HINESBATCH_BUILDING_SHARED)
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/api/include
                                             ${HB_GENERATED_INCLUDE} ${CMAKE_CURRENT_SOURCE_DIR})
  if(CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${name} PRIVATE $<$<COMPILE_LANGUAGE:C>:-Wall -Wextra>)
  endif()
  set_property(GLOBAL APPEND PROPERTY HB_COMPONENTS ${name})
endfunction()

# hb_component_uses(name layer...): the internal headers of lower layers
# (core, sim) that a component includes.
function(hb_component_uses name)
  foreach(layer ${ARGN})
    target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/api/${layer})
  endforeach()
endfunction()
