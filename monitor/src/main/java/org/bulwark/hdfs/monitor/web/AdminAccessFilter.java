package org.bulwark.hdfs.monitor.web;

import java.io.IOException;

import javax.servlet.Filter;
import javax.servlet.FilterChain;
import javax.servlet.FilterConfig;
import javax.servlet.ServletException;
import javax.servlet.ServletRequest;
import javax.servlet.ServletResponse;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.authorize.AccessControlList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lets only the monitor's administrators through: the pages and the API list file paths and where
 * every block lives. It runs after Hadoop's authentication filter, which sets the remote user (SPNEGO
 * on a Kerberized cluster); an ACL of {@code *} lets every authenticated user in, and anybody at all
 * when no authentication filter is configured.
 */
public final class AdminAccessFilter implements Filter {
  static final String ACL_PARAMETER = "acl";
  private static final Logger LOG = LoggerFactory.getLogger(AdminAccessFilter.class);

  private AccessControlList admins;

  @Override
  public void init(FilterConfig config) {
    admins = new AccessControlList(config.getInitParameter(ACL_PARAMETER));
  }

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    HttpServletRequest req = (HttpServletRequest) request;
    if (admins.isAllAllowed()) {
      chain.doFilter(request, response);
      return;
    }
    String user = req.getRemoteUser();
    if (user != null && admins.isUserAllowed(UserGroupInformation.createRemoteUser(user))) {
      chain.doFilter(request, response);
      return;
    }
    LOG.warn("Refused {} {} to {}: not in bulwark.monitor.http.administrators", req.getMethod(), req.getRequestURI(),
        user == null ? "an unauthenticated user" : user);
    ((HttpServletResponse) response).sendError(HttpServletResponse.SC_FORBIDDEN);
  }

  @Override
  public void destroy() {
  }
}
