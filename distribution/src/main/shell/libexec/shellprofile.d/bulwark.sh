#!/usr/bin/env bash
# Bulwark shell profile for Apache Hadoop 3.x.
#
# Hadoop's launchers source every ${HADOOP_LIBEXEC_DIR}/shellprofile.d/*.sh and
# ${HADOOP_CONF_DIR}/shellprofile.d/*.sh; bin/hdfs then calls hdfs_subcommand_<name> instead of its
# built-in case whenever such a function is defined. That is how Bulwark adds and overrides hdfs
# subcommands without patching Hadoop:
#
#   hdfs balancer -policy availability [stock options]   Bulwark's availability balancer
#   hdfs balancer [any other options]                     the stock balancer, unchanged
#   hdfs hotstandby                                       ZooKeeper failover controller (daemon)
#   hdfs blockmonitor                                     replica-location history monitor (daemon)
#
# Installed either by extracting bulwark-<version>.tar.gz into $HADOOP_HOME (the jars land in
# share/hadoop/hdfs/lib, already on every hdfs command's classpath), or, without write access to
# $HADOOP_HOME, by extracting it anywhere, copying this file into $HADOOP_CONF_DIR/shellprofile.d/
# and adding the jars to HADOOP_CLASSPATH (or setting BULWARK_HOME to the extracted directory).

hadoop_add_profile bulwark

# Adds the jars of an install kept outside $HADOOP_HOME to every Hadoop command's classpath, so that
# the NameNode finds the placement policies and clients the failover proxy provider. Runs for every
# command, so it is also where two versions' jars side by side are refused.
function _bulwark_hadoop_classpath
{
  _bulwark_refuse_two_versions
  if [[ -n "${BULWARK_HOME}" ]]; then
    hadoop_add_classpath "${BULWARK_HOME}/share/hadoop/hdfs/lib/*"
  fi
}

# Prints the directories Bulwark's jars may be in, one per line: BULWARK_HOME's, the Hadoop install's,
# and those HADOOP_CLASSPATH names (a dir/* entry or a jar's directory). HADOOP_CLASSPATH is split on
# ':' only: a dir/* entry is not expanded by the shell.
function _bulwark_jar_dirs
{
  local entries entry
  if [[ -n "${BULWARK_HOME}" ]]; then
    echo "${BULWARK_HOME}/share/hadoop/hdfs/lib"
  fi
  echo "${HADOOP_HDFS_HOME:-${HADOOP_HOME}}/${HDFS_LIB_JARS_DIR:-share/hadoop/hdfs/lib}"
  IFS=':' read -r -a entries <<< "${HADOOP_CLASSPATH}"
  for entry in "${entries[@]}"; do
    if [[ "${entry}" == *.jar ]]; then
      dirname -- "${entry}"
    elif [[ -n "${entry}" ]]; then
      echo "${entry%/\*}"
    fi
  done
}

# Stops with one line when the jar directories hold two versions of a Bulwark module (a new tarball
# extracted over an old one without removing the old jars): Java would load whichever came first.
function _bulwark_refuse_two_versions
{
  local dir jar name module found
  local seen=() # module=jar, one per module (bash 3 has no associative arrays)
  while IFS= read -r dir; do
    for jar in "${dir}"/bulwark-*.jar; do
      [[ -f "${jar}" ]] || continue
      name=${jar##*/}
      [[ "${name}" =~ ^bulwark-(.+)-[0-9][^-]*(-SNAPSHOT)?\.jar$ ]] || continue
      module=${BASH_REMATCH[1]}
      for found in "${seen[@]}"; do
        if [[ "${found%%=*}" == "${module}" && "${found##*/}" != "${name}" ]]; then
          hadoop_error "ERROR: two versions of Bulwark's ${module} jar: ${found#*=} and ${jar}; remove the older version's bulwark-*.jar files."
          exit 1
        fi
      done
      seen+=("${module}=${jar}")
    done
  done < <(_bulwark_jar_dirs)
}

# Prints the path of the jar of Bulwark module $1 (balancer-policy, hotstandby, monitor, ...), looked
# for in BULWARK_HOME, in the Hadoop install, and in the directories of HADOOP_CLASSPATH.
function _bulwark_find_jar
{
  local module=$1
  local dir jar
  while IFS= read -r dir; do
    for jar in "${dir}/bulwark-${module}-"[0-9]*.jar; do
      if [[ -f "${jar}" ]]; then
        echo "${jar}"
        return 0
      fi
    done
  done < <(_bulwark_jar_dirs)
  return 1
}

# Puts the jar of Bulwark module $1 on the classpath, or stops with one line saying what is missing.
function _bulwark_require_module
{
  local module=$1
  local jar
  if ! jar=$(_bulwark_find_jar "${module}"); then
    hadoop_error "ERROR: bulwark-${module}-*.jar not found in ${HADOOP_HDFS_HOME:-${HADOOP_HOME}}/share/hadoop/hdfs/lib, BULWARK_HOME or HADOOP_CLASSPATH: extract the Bulwark tarball into HADOOP_HOME or set BULWARK_HOME."
    exit 1
  fi
  hadoop_add_classpath "${jar}"
}

# Prints $1 in lower case (bash 3, which Hadoop's scripts still run under, has no ${var,,}).
function _bulwark_lower
{
  printf '%s' "$1" | tr '[:upper:]' '[:lower:]'
}

# True when the arguments select the availability policy. The stock balancer matches its option names
# and the policy name regardless of case (-Policy Availability), so this does too.
function _bulwark_wants_availability_policy
{
  while [[ $# -gt 0 ]]; do
    if [[ "$(_bulwark_lower "$1")" == "-policy" && $# -ge 2 ]]; then
      [[ "$(_bulwark_lower "$2")" == "availability" ]] && return 0
      shift
    fi
    shift
  done
  return 1
}

if [[ "${HADOOP_SHELL_EXECNAME}" == hdfs ]]; then
  hadoop_add_subcommand "hotstandby" daemon "run the Bulwark ZooKeeper failover controller for this NameNode"
  hadoop_add_subcommand "blockmonitor" daemon "run the Bulwark replica-location history monitor"
fi

function hdfs_subcommand_balancer
{
  # shellcheck disable=SC2034
  HADOOP_SUBCMD_SUPPORTDAEMONIZATION="true"
  if _bulwark_wants_availability_policy "$@"; then
    # shellcheck disable=SC2034
    HADOOP_CLASSNAME=org.bulwark.hdfs.balancer.BalancerLauncher
    _bulwark_require_module balancer-policy
  else
    # shellcheck disable=SC2034
    HADOOP_CLASSNAME=org.apache.hadoop.hdfs.server.balancer.Balancer
  fi
}

function hdfs_subcommand_hotstandby
{
  # shellcheck disable=SC2034
  HADOOP_SUBCMD_SUPPORTDAEMONIZATION="true"
  # shellcheck disable=SC2034
  HADOOP_CLASSNAME=org.bulwark.hdfs.hotstandby.HotStandbyController
  _bulwark_require_module hotstandby
}

function hdfs_subcommand_blockmonitor
{
  # shellcheck disable=SC2034
  HADOOP_SUBCMD_SUPPORTDAEMONIZATION="true"
  # shellcheck disable=SC2034
  HADOOP_CLASSNAME=org.bulwark.hdfs.monitor.BlockMonitor
  _bulwark_require_module monitor
  # Its JDBC drivers (H2, PostgreSQL) sit next to the jar, off every other daemon's classpath.
  local jar
  jar=$(_bulwark_find_jar monitor)
  hadoop_add_classpath "$(dirname -- "${jar}")/bulwark-monitor-lib/*"
}
