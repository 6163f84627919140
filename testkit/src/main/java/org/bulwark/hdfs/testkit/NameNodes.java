package org.bulwark.hdfs.testkit;

import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.MiniDFSNNTopology;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.apache.hadoop.hdfs.server.namenode.NameNode;

/**
 * Which NameNode of a {@link BulwarkMiniCluster} is where: the nameservices and NameNode ids it starts
 * them with, MiniDFSCluster's index of each, the URI clients use, and which one is active. Kept in one
 * class because the lookup parses back the ids the start-up gives.
 */
final class NameNodes {
  private final MiniDFSCluster cluster;
  private final List<String> nameservices;
  private final int perNameservice;
  private final int[][] indexes;

  NameNodes(MiniDFSCluster cluster, List<String> nameservices, int perNameservice) {
    this.cluster = cluster;
    this.nameservices = Collections.unmodifiableList(new ArrayList<>(nameservices));
    this.perNameservice = perNameservice;
    this.indexes = indexes(cluster, nameservices, perNameservice);
  }

  /**
   * Nameservices ns1..nsN with NameNodes nn1..nnM each, on fixed free ports so that a restarted
   * NameNode keeps its address. A single plain NameNode gets no nameservice id, as in a small cluster.
   * Adds the nameservice ids to {@code nsIds}.
   */
  static MiniDFSNNTopology topology(int nameservices, int perNameservice, List<String> nsIds) throws IOException {
    boolean ha = perNameservice > 1;
    if (nameservices == 1 && !ha) {
      nsIds.add(null);
      return MiniDFSNNTopology.simpleSingleNN(0, 0);
    }
    int[] ports = FreePorts.pick(2 * nameservices * perNameservice);
    MiniDFSNNTopology t = new MiniDFSNNTopology();
    int p = 0;
    for (int s = 1; s <= nameservices; s++) {
      MiniDFSNNTopology.NSConf ns = new MiniDFSNNTopology.NSConf("ns" + s);
      for (int m = 1; m <= perNameservice; m++) {
        ns.addNN(new MiniDFSNNTopology.NNConf(ha ? "nn" + m : null).setIpcPort(ports[p++]).setHttpPort(ports[p++]));
      }
      t.addNameservice(ns);
      nsIds.add("ns" + s);
    }
    return t.setFederation(nameservices > 1);
  }

  /**
   * Where MiniDFSCluster keeps each NameNode: its list follows a hash map of nameservice ids, not the
   * order the nameservices were configured in (with two, ns2's NameNodes may come first).
   */
  private static int[][] indexes(MiniDFSCluster cluster, List<String> nameservices, int perNameservice) {
    int[][] indexes = new int[nameservices.size()][perNameservice];
    MiniDFSCluster.NameNodeInfo[] infos = cluster.getNameNodeInfos();
    for (int i = 0; i < infos.length; i++) {
      int ns = nameservices.indexOf(infos[i].getNameserviceId());
      String nnId = infos[i].getNamenodeId();
      int nn = nnId == null ? 0 : Integer.parseInt(nnId.substring("nn".length())) - 1;
      indexes[ns < 0 ? 0 : ns][nn] = i;
    }
    return indexes;
  }

  List<String> nameservices() {
    return nameservices;
  }

  int perNameservice() {
    return perNameservice;
  }

  int index(int ns, int nn) {
    return indexes[ns][nn];
  }

  NameNode nameNode(int ns, int nn) {
    return cluster.getNameNode(index(ns, nn));
  }

  /** Logical for HA, the NameNode's address otherwise. */
  URI uri(int ns) {
    if (perNameservice > 1) {
      return URI.create("hdfs://" + nameservices.get(ns));
    }
    return cluster.getURI(index(ns, 0));
  }

  FSNamesystem active(int ns) {
    for (int nn = 0; nn < perNameservice; nn++) {
      int i = index(ns, nn);
      if (cluster.isNameNodeUp(i) && cluster.getNameNode(i).isActiveState()) {
        return cluster.getNamesystem(i);
      }
    }
    throw new IllegalStateException("nameservice " + ns + " has no active NameNode");
  }

  /** The namesystem of every running NameNode, active or standby, of every nameservice. */
  List<FSNamesystem> running() {
    List<FSNamesystem> out = new ArrayList<>();
    for (int i = 0; i < cluster.getNumNameNodes(); i++) {
      if (cluster.isNameNodeUp(i)) {
        out.add(cluster.getNamesystem(i));
      }
    }
    return out;
  }
}
