<?xml version="1.0"?>
<!-- Sales by region and product, sorted and summed (bench/suite.sh). -->
<xsl:stylesheet version="3.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
  <xsl:output method="xml" indent="yes"/>
  <xsl:template match="/sales">
    <report>
      <xsl:for-each-group select="sale" group-by="@region">
        <xsl:sort select="current-grouping-key()"/>
        <region name="{current-grouping-key()}" total="{sum(current-group()/@amount)}" count="{count(current-group())}">
          <xsl:for-each-group select="current-group()" group-by="@product">
            <xsl:sort select="sum(current-group()/@amount)" data-type="number" order="descending"/>
            <xsl:sort select="current-grouping-key()"/>
            <product name="{current-grouping-key()}" total="{sum(current-group()/@amount)}"/>
          </xsl:for-each-group>
        </region>
      </xsl:for-each-group>
      <top>
        <xsl:for-each select="sale">
          <xsl:sort select="@amount" data-type="number" order="descending"/>
          <xsl:sort select="@id" data-type="number"/>
          <xsl:if test="position() le 20"><sale id="{@id}" amount="{@amount}"/></xsl:if>
        </xsl:for-each>
      </top>
    </report>
  </xsl:template>
</xsl:stylesheet>
