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
# the NameNode finds the placement policies and clients the failover proxy provider.
function _bulwark_hadoop_classpath
{
  if [[ -n "${BULWARK_HOME}" ]]; then
    hadoop_add_classpath "${BULWARK_HOME}/share/hadoop/hdfs/lib/*"
  fi
}

# Prints the path of the jar of Bulwark module $1 (balancer-policy, hotstandby, monitor, ...), looked
# for in BULWARK_HOME, in the Hadoop install, and in the directories of HADOOP_CLASSPATH.
function _bulwark_find_jar
{
  local module=$1
  local dirs=()
  local entry dir jar
  if [[ -n "${BULWARK_HOME}" ]]; then
    dirs+=("${BULWARK_HOME}/share/hadoop/hdfs/lib")
  fi
  dirs+=("${HADOOP_HDFS_HOME:-${HADOOP_HOME}}/${HDFS_LIB_JARS_DIR:-share/hadoop/hdfs/lib}")
  local IFS=':'
  for entry in ${HADOOP_CLASSPATH}; do
    dir=${entry%/\*}
    if [[ "${entry}" == *.jar ]]; then
      dir=$(dirname -- "${entry}")
    fi
    dirs+=("${dir}")
  done
  unset IFS
  for dir in "${dirs[@]}"; do
    for jar in "${dir}/bulwark-${module}-"*.jar; do
      if [[ -f "${jar}" ]]; then
        echo "${jar}"
        return 0
      fi
    done
  done
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

# True when the arguments select the availability policy (the stock balancer's -policy is
# case-insensitive, so this is too).
function _bulwark_wants_availability_policy
{
  while [[ $# -gt 0 ]]; do
    if [[ "$1" == "-policy" && $# -ge 2 ]]; then
      local policy
      policy=$(echo "$2" | tr '[:upper:]' '[:lower:]')
      [[ "${policy}" == "availability" ]] && return 0
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
