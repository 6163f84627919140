#!/usr/bin/env bash
# Stand-ins for the Apache Hadoop 3.4 shell functions (libexec/hadoop-functions.sh) that a shell
# profile calls, written to the same contracts, so the profile can be tested without a Hadoop install.

HADOOP_SHELL_PROFILES=""
HADOOP_SUBCMD_USAGE=()
CLASSPATH=""

function hadoop_error
{
  echo "$*" 1>&2
}

function hadoop_debug
{
  if [[ -n "${HADOOP_SHELL_SCRIPT_DEBUG}" ]]; then
    echo "DEBUG: $*" 1>&2
  fi
}

# Registers a profile once; its _<name>_hadoop_* hooks run later.
function hadoop_add_profile
{
  if [[ ! " ${HADOOP_SHELL_PROFILES} " =~ " $1 " ]]; then
    HADOOP_SHELL_PROFILES="${HADOOP_SHELL_PROFILES} $1"
  fi
}

# Records a subcommand for the usage text: name, type (client/admin/daemon), description.
function hadoop_add_subcommand
{
  HADOOP_SUBCMD_USAGE+=("$1@$2@$3")
}

# Adds a directory wildcard (dir/*) or a file to CLASSPATH once, when it exists; returns 1 otherwise.
function hadoop_add_classpath
{
  if [[ $1 =~ ^.*\*$ ]]; then
    if [[ ! -d "$(dirname -- "$1")" ]]; then
      return 1
    fi
  elif [[ ! -e "$1" ]]; then
    return 1
  fi
  if [[ ":${CLASSPATH}:" == *":$1:"* ]]; then
    return 0
  fi
  if [[ -z "${CLASSPATH}" ]]; then
    CLASSPATH=$1
  elif [[ "$2" == "before" ]]; then
    CLASSPATH="$1:${CLASSPATH}"
  else
    CLASSPATH="${CLASSPATH}:$1"
  fi
}

# Runs every registered profile's _<name>_hadoop_<hook> function, as hadoop_shellprofiles_<hook> does.
function _stub_run_profile_hook
{
  local i
  for i in ${HADOOP_SHELL_PROFILES}; do
    if declare -F "_${i}_hadoop_$1" >/dev/null; then
      "_${i}_hadoop_$1"
    fi
  done
}

function hadoop_shellprofiles_init
{
  _stub_run_profile_hook init
}

function hadoop_shellprofiles_nativelib
{
  _stub_run_profile_hook nativelib
}

function hadoop_shellprofiles_classpath
{
  _stub_run_profile_hook classpath
}

function hadoop_shellprofiles_finalize
{
  _stub_run_profile_hook finalize
}
