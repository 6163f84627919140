#!/usr/bin/env bash
# Follows the steps of Apache Hadoop 3's hadoop-config.sh and bin/hdfs that decide what runs, in their
# order: import the shell profiles (libexec first, then the configuration directory), run their init,
# nativelib and classpath hooks (hadoop-config.sh, before any subcommand is known; the common jars go
# on the classpath just before the classpath hooks), call hdfs_subcommand_<name> when a profile
# defines it or the built-in case otherwise, then the profiles' finalize hooks (hadoop_finalize).
# Instead of starting Java it prints the outcome, one VAR=value per line.
# usage: HADOOP_HOME=... HADOOP_LIBEXEC_DIR=... HADOOP_CONF_DIR=... fake-hdfs.sh SUBCOMMAND [ARGS...]

# shellcheck source=hadoop-function-stubs.sh
. "$(dirname -- "${BASH_SOURCE[0]}")/hadoop-function-stubs.sh"

HADOOP_SHELL_EXECNAME=hdfs
HADOOP_SUBCMD_SUPPORTDAEMONIZATION=false

for profile in "${HADOOP_LIBEXEC_DIR}"/shellprofile.d/*.sh "${HADOOP_CONF_DIR}"/shellprofile.d/*.sh; do
  if [[ -f "${profile}" ]]; then
    # shellcheck disable=SC1090
    . "${profile}"
  fi
done

hadoop_shellprofiles_init
hadoop_shellprofiles_nativelib
hadoop_add_classpath "${HADOOP_HOME}/share/hadoop/common/*"
hadoop_shellprofiles_classpath

# The stock cases this test relies on, as hdfscmd_case has them.
function hdfscmd_case
{
  case $1 in
    balancer)
      HADOOP_SUBCMD_SUPPORTDAEMONIZATION="true"
      HADOOP_CLASSNAME=org.apache.hadoop.hdfs.server.balancer.Balancer
    ;;
    namenode)
      HADOOP_SUBCMD_SUPPORTDAEMONIZATION="true"
      HADOOP_CLASSNAME=org.apache.hadoop.hdfs.server.namenode.NameNode
    ;;
    *)
      HADOOP_CLASSNAME=$1
    ;;
  esac
}

HADOOP_SUBCMD=$1
shift
HADOOP_SUBCMD_ARGS=("$@")
if declare -f "hdfs_subcommand_${HADOOP_SUBCMD}" >/dev/null 2>&1; then
  SUBCMD_SOURCE=profile
  "hdfs_subcommand_${HADOOP_SUBCMD}" "${HADOOP_SUBCMD_ARGS[@]}"
else
  SUBCMD_SOURCE=stock
  hdfscmd_case "${HADOOP_SUBCMD}" "${HADOOP_SUBCMD_ARGS[@]}"
fi

hadoop_shellprofiles_finalize

echo "SUBCMD_SOURCE=${SUBCMD_SOURCE}"
echo "HADOOP_CLASSNAME=${HADOOP_CLASSNAME}"
echo "HADOOP_SUBCMD_SUPPORTDAEMONIZATION=${HADOOP_SUBCMD_SUPPORTDAEMONIZATION}"
echo "CLASSPATH=${CLASSPATH}"
echo "HADOOP_SUBCMD_ARGS=${HADOOP_SUBCMD_ARGS[*]}"
echo "HADOOP_SHELL_PROFILES=${HADOOP_SHELL_PROFILES# }"
for usage in "${HADOOP_SUBCMD_USAGE[@]}"; do
  echo "USAGE=${usage}"
done
